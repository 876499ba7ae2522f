import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { PASSKEY_MAX, type Passkey } from '@switchyard/contract/two-factor';
import type { Sql } from '../../db/connect';
import {
  clearAttempts,
  deletePasskey,
  findPasskey,
  insertPasskey,
  listPasskeys,
  recordPasskeyUse,
  twoFactorEnabled,
} from '../../db/repos/two-factor';
import type { UserRow } from '../../db/schema';
import { onFirstUse } from '../../on-first-use';
import type { AuditLog } from '../audit/audit-log';
import { DomainError } from '../errors';
import type { OptionsStore } from '../options';
import type { Actor } from '../permissions';
import { countAttempt } from './attempts';
import { recordTwoFactor, waitingUser } from './second-step';

/** Who the passkeys belong to: the site's host name (`rpID`) and the console's origin. */
export interface RelyingParty {
  id: string;
  origin: string;
}

const TRANSPORTS_SEPARATOR = ',';

const webauthn = onFirstUse(() => import('@simplewebauthn/server'));

/** The library throws on a malformed or forged answer: every such failure is the same refusal. */
async function verified<T>(check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch {
    throw new DomainError('passkey_invalid');
  }
}

/**
 * Passkeys (WebAuthn) as another second factor of a user with two-factor sign-in on: registered and
 * removed by their owner, offered at the second sign-in step beside the codes. Challenges ride in the
 * session (the caller's, or the waiting second step's); public keys alone are stored.
 */
export class PasskeyService {
  readonly #now: () => number;

  constructor(
    private readonly deps: { db: Sql; options: OptionsStore; audit: AuditLog; clock?: () => number },
  ) {
    this.#now = deps.clock ?? Date.now;
  }

  async has(userId: number): Promise<boolean> {
    return (await listPasskeys(this.deps.db, userId)).length > 0;
  }

  async list(actor: Actor): Promise<Passkey[]> {
    return (await listPasskeys(this.deps.db, actor.id)).map((row) => ({
      id: row.id,
      name: row.name,
      created_at: row.created_at,
      last_used_at: row.last_used_at,
    }));
  }

  /** The options of a new passkey; the caller keeps `challenge` for `register`. */
  async registrationOptions(actor: Actor, rp: RelyingParty): Promise<PublicKeyCredentialCreationOptionsJSON> {
    if (!(await twoFactorEnabled(this.deps.db, actor.id))) throw new DomainError('two_factor_not_enabled');
    const existing = await listPasskeys(this.deps.db, actor.id);
    if (existing.length >= PASSKEY_MAX) throw new DomainError('passkey_limit', { max: PASSKEY_MAX });
    const { generateRegistrationOptions } = await webauthn();
    return generateRegistrationOptions({
      rpName: this.deps.options.get('SystemName') || 'Switchyard',
      rpID: rp.id,
      userName: actor.username,
      userID: new TextEncoder().encode(String(actor.id)),
      attestationType: 'none',
      excludeCredentials: existing.map((row) => ({ id: row.id, transports: transportsOf(row.transports) })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
  }

  async register(
    actor: Actor,
    input: { name?: string; credential: RegistrationResponseJSON },
    challenge: string,
    rp: RelyingParty,
    ip: string,
  ): Promise<Passkey> {
    const { db } = this.deps;
    if (!(await twoFactorEnabled(db, actor.id))) throw new DomainError('two_factor_not_enabled');
    if ((await listPasskeys(db, actor.id)).length >= PASSKEY_MAX) {
      throw new DomainError('passkey_limit', { max: PASSKEY_MAX });
    }
    const { verifyRegistrationResponse } = await webauthn();
    const result = await verified(() =>
      verifyRegistrationResponse({
        response: input.credential,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: false,
      }),
    );
    if (!result.verified) throw new DomainError('passkey_invalid');
    const { credential } = result.registrationInfo;
    if (await findPasskey(db, credential.id)) throw new DomainError('passkey_invalid');
    const now = Math.floor(this.#now() / 1000);
    const row = {
      id: credential.id,
      user_id: actor.id,
      name: input.name || 'Passkey',
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: (credential.transports ?? []).join(TRANSPORTS_SEPARATOR),
      created_at: now,
      last_used_at: 0,
    };
    try {
      await insertPasskey(db, row);
    } catch (error) {
      // The same passkey registered twice at once: the second insert meets the first's key.
      if (await findPasskey(db, credential.id)) throw new DomainError('passkey_invalid');
      throw error;
    }
    await recordTwoFactor(this.deps.audit, 'user.passkey_add', actor, actor, ip);
    return { id: row.id, name: row.name, created_at: row.created_at, last_used_at: 0 };
  }

  async remove(actor: Actor, id: string, ip: string): Promise<void> {
    if (!(await deletePasskey(this.deps.db, actor.id, id))) throw new DomainError('passkey_not_found');
    await recordTwoFactor(this.deps.audit, 'user.passkey_remove', actor, actor, ip);
  }

  /** The sign-in's challenge for the waiting user's passkeys; the session keeps it for `verifySignIn`. */
  async signInOptions(
    pending: { id: number; epoch: number },
    rp: RelyingParty,
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const user = await waitingUser(this.deps.db, pending);
    const passkeys = await listPasskeys(this.deps.db, user.id);
    if (passkeys.length === 0) throw new DomainError('passkey_not_found');
    const { generateAuthenticationOptions } = await webauthn();
    return generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: passkeys.map((row) => ({ id: row.id, transports: transportsOf(row.transports) })),
      userVerification: 'preferred',
    });
  }

  /** The second sign-in step with a passkey: counted against the same attempt limit as the codes. */
  async verifySignIn(
    pending: { id: number; epoch: number },
    credential: AuthenticationResponseJSON,
    challenge: string,
    rp: RelyingParty,
  ): Promise<UserRow> {
    const { db } = this.deps;
    const user = await waitingUser(db, pending);
    await countAttempt(db, user.id, this.#now());
    const passkey = await findPasskey(db, credential.id);
    if (!passkey || passkey.user_id !== user.id) throw new DomainError('passkey_invalid');
    const { verifyAuthenticationResponse } = await webauthn();
    const result = await verified(() =>
      verifyAuthenticationResponse({
        response: credential,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          id: passkey.id,
          publicKey: Buffer.from(passkey.public_key ?? '', 'base64url'),
          counter: passkey.counter,
          transports: transportsOf(passkey.transports),
        },
        requireUserVerification: false,
      }),
    );
    if (!result.verified) throw new DomainError('passkey_invalid');
    await recordPasskeyUse(
      db,
      passkey.id,
      result.authenticationInfo.newCounter,
      Math.floor(this.#now() / 1000),
    );
    await clearAttempts(db, user.id);
    return user;
  }
}

type Transport = NonNullable<RegistrationResponseJSON['response']['transports']>[number];
const transportsOf = (stored: string): Transport[] =>
  stored ? (stored.split(TRANSPORTS_SEPARATOR) as Transport[]) : [];
