import type {
  CreateUserInput,
  ManageAction,
  RegisterInput,
  UpdateSelfInput,
  UpdateUserInput,
  User,
} from '@switchyard/contract/users';
import type { Sql } from '../../db/connect';
import type { SignedInSession } from '../../db/repos/users';
import type { UserRow } from '../../db/schema';
import type { OptionsStore } from '../options';
import type { Actor } from '../permissions';
import type { VerificationCodes } from '../verification-codes';
import { logout, verifyLogin } from './login';
import type { Passwords } from './passwords';
import { UserRecords } from './records';
import { type NewUserFields, Registration } from './registration';
import { SelfService } from './self-service';
import { topUp } from './top-up';
import { UserAdmin } from './user-admin';

export interface UserServiceDeps {
  db: Sql;
  options: OptionsStore;
  codes: VerificationCodes;
  /** Hashes of PASSWORD_HASH_COST. */
  passwords: Passwords;
  /** Told after a user row changes, so caches of it (the relay's) drop it. */
  onUserChanged?: (id: number) => void;
}

/** One door to the user services for the routes and the services that create or read users. */
export class UserService {
  readonly #deps: UserServiceDeps;
  readonly #records: UserRecords;
  readonly #registration: Registration;
  readonly #admin: UserAdmin;
  readonly #self: SelfService;

  constructor(deps: UserServiceDeps) {
    this.#deps = deps;
    this.#records = new UserRecords(deps);
    this.#registration = new Registration({
      records: this.#records,
      options: deps.options,
      codes: deps.codes,
      passwords: deps.passwords,
    });
    this.#admin = new UserAdmin({
      records: this.#records,
      registration: this.#registration,
      options: deps.options,
      passwords: deps.passwords,
    });
    this.#self = new SelfService(this.#records, deps.passwords);
  }

  getRow = (id: number): Promise<UserRow> => this.#records.getRow(id);
  create = (fields: NewUserFields): Promise<UserRow> => this.#registration.create(fields);
  register = (input: RegisterInput): Promise<void> => this.#registration.register(input);
  verifyLogin = (login: string, password: string): Promise<UserRow> =>
    verifyLogin(this.#deps.db, this.#deps.options, this.#deps.passwords, login, password);
  logout = (session: SignedInSession | undefined): Promise<void> => logout(this.#deps.db, session);

  updateSelf = (actor: Actor, input: UpdateSelfInput): Promise<void> => this.#self.updateSelf(actor, input);
  deleteSelf = (actor: Actor): Promise<void> => this.#self.deleteSelf(actor);
  endSessions = (actor: Actor): Promise<void> => this.#self.endSessions(actor);
  regenerateAccessToken = (actor: Actor): Promise<string> => this.#self.regenerateAccessToken(actor);
  affCode = (actor: Actor): Promise<string> => this.#self.affCode(actor);
  availableModels = (actor: Actor): Promise<string[]> => this.#self.availableModels(actor);

  list = (actor: Actor, page: number, order: string | undefined): Promise<User[]> =>
    this.#admin.list(actor, page, order);
  search = (actor: Actor, keyword: string): Promise<User[]> => this.#admin.search(actor, keyword);
  getForAdmin = (actor: Actor, id: number): Promise<User> => this.#admin.getForAdmin(actor, id);
  createByAdmin = (actor: Actor, input: CreateUserInput): Promise<void> =>
    this.#admin.createByAdmin(actor, input);
  updateByAdmin = (actor: Actor, input: UpdateUserInput): Promise<User> =>
    this.#admin.updateByAdmin(actor, input);
  manage = (actor: Actor, username: string, action: ManageAction): Promise<Pick<User, 'role' | 'status'>> =>
    this.#admin.manage(actor, username, action);
  deleteByAdmin = (actor: Actor, id: number): Promise<void> => this.#admin.deleteByAdmin(actor, id);
  topUp = (actor: Actor, userId: number, quota: number, remark: string | undefined): Promise<void> =>
    topUp({ records: this.#records, options: this.#deps.options }, actor, userId, quota, remark);
}
