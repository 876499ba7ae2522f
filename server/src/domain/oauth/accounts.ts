import { UserStatus } from '@switchyard/contract/roles';
import { DISPLAY_NAME_MAX, EMAIL_MAX } from '@switchyard/contract/users';
import type { Sql } from '../../db/connect';
import {
  findUserByIdentity,
  type IdentityColumn,
  maxUserId,
  setIdentity,
} from '../../db/repos/user-identities';
import { findSessionUser, type SignedInSession } from '../../db/repos/users';
import type { UserRow } from '../../db/schema';
import { DomainError } from '../errors';
import type { OptionsStore } from '../options';
import type { UserService } from '../users';

export type ExternalProvider = 'github' | 'lark' | 'wechat' | 'oidc';

/** Who an outside provider says signed in. */
export interface ExternalIdentity {
  id: string;
  name: string;
  email: string;
}

interface ProviderRules {
  column: IdentityColumn;
  label: string;
  usernamePrefix: string;
  defaultDisplayName: string;
}

const PROVIDERS: Record<ExternalProvider, ProviderRules> = {
  github: {
    column: 'github_id',
    label: 'GitHub',
    usernamePrefix: 'github_',
    defaultDisplayName: 'GitHub User',
  },
  lark: { column: 'lark_id', label: 'Lark', usernamePrefix: 'lark_', defaultDisplayName: 'Lark User' },
  oidc: {
    column: 'oidc_subject',
    label: 'OpenID Connect',
    usernamePrefix: 'oidc_',
    defaultDisplayName: 'OIDC User',
  },
  wechat: {
    column: 'wechat_id',
    label: 'WeChat',
    usernamePrefix: 'wechat_',
    defaultDisplayName: 'WeChat User',
  },
};

const CREATE_ATTEMPTS = 3;

/**
 * Accounts reached through GitHub, Lark, WeChat or OpenID Connect: signing in (and signing up on first visit) by
 * the provider's id, and linking that id to a user who is already signed in.
 */
export class OAuthAccounts {
  constructor(private readonly deps: { db: Sql; options: OptionsStore; users: UserService }) {}

  /** The user linked to this outside account; a new one when registration is open. */
  async signIn(provider: ExternalProvider, identity: ExternalIdentity): Promise<UserRow> {
    const rules = PROVIDERS[provider];
    const user =
      (await findUserByIdentity(this.deps.db, rules.column, identity.id)) ??
      (await this.#register(rules, identity));
    if (user.status !== UserStatus.enabled) throw new DomainError('user_banned');
    return user;
  }

  /** The signed-in user of a session, if it still holds; a banned one is refused. */
  async sessionUser(session: SignedInSession | undefined): Promise<UserRow | undefined> {
    const user = session && (await findSessionUser(this.deps.db, session));
    if (!user || user.status === UserStatus.deleted) return undefined;
    if (user.status !== UserStatus.enabled) throw new DomainError('user_banned');
    return user;
  }

  /** Links the outside account to `userId`, unless another user already holds it. */
  async bind(userId: number, provider: ExternalProvider, externalId: string): Promise<void> {
    const rules = PROVIDERS[provider];
    const holder = await findUserByIdentity(this.deps.db, rules.column, externalId);
    if (holder && holder.id !== userId) {
      throw new DomainError('oauth_account_bound', { provider: rules.label });
    }
    if (!holder) await setIdentity(this.deps.db, userId, rules.column, externalId);
  }

  async #register(rules: ProviderRules, identity: ExternalIdentity): Promise<UserRow> {
    if (!this.deps.options.bool('RegisterEnabled')) {
      throw new DomainError('registration_closed');
    }
    const displayName = (identity.name.trim() || rules.defaultDisplayName).slice(0, DISPLAY_NAME_MAX);
    const email = identity.email.length <= EMAIL_MAX ? identity.email : '';
    for (let attempt = 1; ; attempt++) {
      // one-api names new users after the next id; a race for the same name just takes the next one.
      const username = `${rules.usernamePrefix}${(await maxUserId(this.deps.db)) + attempt}`;
      try {
        return await this.deps.users.create({
          username,
          password: '',
          display_name: displayName,
          email,
          [rules.column]: identity.id,
        });
      } catch (error) {
        if (!(error instanceof DomainError) || attempt >= CREATE_ATTEMPTS) throw error;
      }
    }
  }
}
