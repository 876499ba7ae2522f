import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { CONSOLE_CALL_HEADER, CONSOLE_CALL_VALUE } from '@switchyard/contract/console-call';
import pino from 'pino';
import { type App, buildApp } from '../src/app';
import { type Config, loadConfig } from '../src/config';
import { type Db, openDatabase } from '../src/db/database';
import { ensureLogOutbox, prepareLogDatabase } from '../src/db/log-database-schema';
import { migrateToLatest } from '../src/db/migrate';
import { ensureRootUser } from '../src/domain/bootstrap';
import { createTestDatabase, logSqlDsnOf, type TestDatabase } from './databases';

export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface EnvelopeBody<T = unknown> {
  success: boolean;
  message: string;
  data?: T;
  code?: string;
  params?: Record<string, string | number>;
}

/** The Accept of a browser loading a page (what the console's index.html fallback answers). */
export const PAGE_LOAD = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** An HTTP client with its own cookie jar, like one browser. */
export class Client {
  cookie = '';
  authorization: string | undefined;

  constructor(readonly baseUrl: string) {}

  async request<T = EnvelopeBody>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<JsonResponse<T>> {
    // As the console does: its header marks each call as this site's.
    const init: RequestInit = { method, headers: { [CONSOLE_CALL_HEADER]: CONSOLE_CALL_VALUE, ...headers } };
    const requestHeaders = init.headers as Record<string, string>;
    if (this.cookie) requestHeaders.cookie = this.cookie;
    if (this.authorization) requestHeaders.authorization = this.authorization;
    if (body !== undefined) {
      requestHeaders['content-type'] ??= 'application/json';
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const response = await fetch(this.baseUrl + path, init);
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair = ''] = setCookie.split(';');
      const [name, value = ''] = pair.split('=');
      if (name === 'session') this.cookie = value ? `session=${value}` : '';
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the caller looks at `text`
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  get = <T = EnvelopeBody>(path: string, headers?: Record<string, string>) =>
    this.request<T>('GET', path, undefined, headers);
  post = <T = EnvelopeBody>(path: string, body?: unknown) => this.request<T>('POST', path, body ?? {});
  put = <T = EnvelopeBody>(path: string, body?: unknown) => this.request<T>('PUT', path, body ?? {});
  delete = <T = EnvelopeBody>(path: string) => this.request<T>('DELETE', path);

  async login(username: string, password: string): Promise<EnvelopeBody> {
    const response = await this.post('/api/user/login', { username, password });
    if (!response.body.success) throw new Error(`login as ${username} failed: ${response.body.message}`);
    return response.body;
  }
}

export interface TestApp {
  app: App;
  db: Db;
  database: TestDatabase;
  config: Config;
  baseUrl: string;
  client(): Client;
  /** A client signed in as root (root/123456). */
  root(): Promise<Client>;
  /** Creates a user through the API (as root) and answers a client signed in as that user. */
  user(username: string, options?: { role?: 'admin' | 'common'; password?: string }): Promise<Client>;
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Reuse a database another app already uses (to test processes that share it). */
  database?: TestDatabase;
  /** A second database for the usage logs (LOG_SQL_DSN); the caller drops it. */
  logDatabase?: TestDatabase;
  /** The app's clock (milliseconds since the epoch): mailed codes' expiry, the time between log folds. */
  clock?: () => number;
  /** The app's logger (a test reads what the app logs); else TEST_LOG's, else none. */
  logger?: pino.Logger;
}

/** A debug-level logger for `StartOptions.logger`, and everything it was given, as text. */
export function logCapture(): { logger: pino.Logger; text(): string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), text: () => lines.join('') };
}

/** HTTP clients of a running server: anonymous, root, and new users created through the API. */
export function clientsFor(baseUrl: string): Pick<TestApp, 'baseUrl' | 'client' | 'root' | 'user'> {
  const root = async () => {
    const client = new Client(baseUrl);
    await client.login('root', '123456');
    return client;
  };
  return {
    baseUrl,
    client: () => new Client(baseUrl),
    root,
    async user(username, { role = 'common', password = 'password123' } = {}) {
      const admin = await root();
      const created = await admin.post('/api/user/', { username, password });
      if (!created.body.success) throw new Error(`creating ${username} failed: ${created.body.message}`);
      if (role === 'admin') await admin.post('/api/user/manage', { username, action: 'promote' });
      const client = new Client(baseUrl);
      await client.login(username, password);
      return client;
    },
  };
}

/** Builds the real app on a fresh real database and listens on a loopback port. */
export async function startTestApp(options: StartOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const config = loadConfig({
    SESSION_SECRET: 'test-session-secret',
    // Tests sign in far more often than 20 times in 20 minutes; rate-limit tests turn it back on.
    CRITICAL_RATE_LIMIT: '0',
    // Likewise the global per-IP limits on /api, the billing dashboard and the console's files.
    GLOBAL_API_RATE_LIMIT: '0',
    GLOBAL_WEB_RATE_LIMIT: '0',
    // Sign-ins at bcrypt's least cost: at one-api's 10 they were a third of the console suites' CPU.
    PASSWORD_HASH_COST: '4',
    // The console as a clean clone has it, not built, whatever web/dist holds: a test that wants
    // it gives WEB_DIST a folder of its own.
    WEB_DIST: '/nonexistent',
    ...database.env,
    ...(options.logDatabase ? { LOG_SQL_DSN: logSqlDsnOf(options.logDatabase) } : {}),
    ...options.env,
  });
  // TEST_LOG=debug shows the app's own log while a test runs.
  const logger = options.logger ?? (process.env.TEST_LOG ? pino({ level: process.env.TEST_LOG }) : undefined);
  // DEBUG_SQL as the server has it: each statement at debug level, in the app's logger.
  const logSql = config.debugSql && logger ? (fields: object) => logger.debug(fields, 'sql') : undefined;
  const db = openDatabase(config.database, { pool: config.databasePool, logSql }, config.logDatabase);
  await migrateToLatest(db);
  await ensureLogOutbox(db);
  // A LOG_SQL_DSN given in `env` may name a database that is out: the app must start without it.
  if (options.logDatabase) await prepareLogDatabase(db);
  const app = await buildApp({ config, db, logger, clock: options.clock });
  await ensureRootUser(db, app.services.users, config);
  await app.server.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.server.address() as AddressInfo).port}`;

  const testApp: TestApp = {
    app,
    db,
    database,
    config,
    ...clientsFor(baseUrl),
    async close() {
      await app.server.close();
      await db.close();
      if (!options.database) await database.drop();
    },
  };
  return testApp;
}
