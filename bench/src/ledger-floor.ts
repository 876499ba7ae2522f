// The second baseline for the gateway's overhead: the least a one-api-compatible gateway must do per call
// to keep durable books. node:http in front of an undici pool (as the bare proxy), keys and users read
// once from the gateway's own tables and checked in memory, the usage read from the answer, and one
// group-committed write per event-loop turn: every call that finished in that turn moves its key's and
// its user's counters and adds its consume log in one transaction. An answer (a stream's `data: [DONE]`)
// is released only after its commit. No routing, retries, holds, summaries or limits.
//
// Environment: UPSTREAM_URL, PORT, and the gateway's SQL_DSN (PostgreSQL) or SQLITE_PATH.
import http from 'node:http';
import type { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Pool } from 'undici';

/** The benchmark's model at the gateway's default price (contract/model-ratios.ts, group "default": 1). */
const PRICED_MODEL = 'gpt-3.5-turbo';
const MODEL_RATIO = 0.25;
const COMPLETION_RATIO = 3;
const CONSUME_CONTENT = `模型倍率 ${MODEL_RATIO}，分组倍率 1，补全倍率 ${COMPLETION_RATIO}`;
const CONSUME_LOG = 2;
const MAX_REQUEST_BYTES = 8 << 20;
const MAX_ANSWER_BYTES = 16 << 20;

interface Key {
  id: number;
  name: string;
  userId: number;
  remainQuota: number;
  unlimited: boolean;
  expiredTime: number;
}

interface User {
  id: number;
  username: string;
  quota: number;
}

interface Usage {
  promptTokens: number;
  completionTokens: number;
}

/** One completed upstream call, waiting for its commit. */
interface Settlement {
  key: Key;
  user: User;
  usage: Usage;
  quota: number;
  stream: boolean;
  createdAt: number;
  elapsedMs: number;
  release: (committed: boolean) => void;
}

/** Where the books are kept: one transaction per batch of settlements. */
interface Books {
  load(): Promise<{ keys: Key[]; users: User[] }>;
  commit(batch: Settlement[]): Promise<void>;
}

// one-api: ceil((prompt + completion × completion ratio) × ratio), at least 1 when a priced call used tokens.
// Twelve significant digits drop binary noise before rounding up, as the gateway does.
function quotaFor(usage: Usage): number {
  if (usage.promptTokens + usage.completionTokens === 0) return 0;
  const tokens = usage.promptTokens + usage.completionTokens * COMPLETION_RATIO;
  return Math.max(1, Math.ceil(Number((tokens * MODEL_RATIO).toPrecision(12))));
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

interface Totals {
  keys: Map<Key, number>;
  users: Map<User, { quota: number; calls: number }>;
}

/** A batch's sums per key and per user, in id order so that concurrent batches lock rows alike. */
function totals(batch: Settlement[]): Totals {
  const keys = new Map<Key, number>();
  const users = new Map<User, { quota: number; calls: number }>();
  for (const { key, user, quota } of batch) {
    keys.set(key, (keys.get(key) ?? 0) + quota);
    const sum = users.get(user) ?? { quota: 0, calls: 0 };
    users.set(user, { quota: sum.quota + quota, calls: sum.calls + 1 });
  }
  const byId = <K extends { id: number }, V>(map: Map<K, V>) =>
    new Map([...map].sort(([a], [b]) => a.id - b.id));
  return { keys: byId(keys), users: byId(users) };
}

const LOAD_KEYS =
  'select id, user_id, key, name, remain_quota, unlimited_quota, expired_time from tokens where status = 1';
const LOAD_USERS = 'select id, username, quota from users where status = 1';

interface KeyRow {
  id: number | string;
  user_id: number | string;
  key: string;
  name: string;
  remain_quota: number | string;
  unlimited_quota: number | boolean;
  expired_time: number | string;
}

interface UserRow {
  id: number | string;
  username: string;
  quota: number | string;
}

const keyOf = (row: KeyRow): Key & { secret: string } => ({
  id: Number(row.id),
  // PostgreSQL pads char(48).
  secret: row.key.trim(),
  name: row.name,
  userId: Number(row.user_id),
  remainQuota: Number(row.remain_quota),
  unlimited: row.unlimited_quota === true || row.unlimited_quota === 1,
  expiredTime: Number(row.expired_time),
});

const userOf = (row: UserRow): User => ({
  id: Number(row.id),
  username: row.username,
  quota: Number(row.quota),
});

function sqliteBooks(file: string): Books {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  const moveKey = db.prepare(
    'update tokens set remain_quota = remain_quota - ?, used_quota = used_quota + ?, accessed_time = ? where id = ?',
  );
  const moveUser = db.prepare(
    'update users set quota = quota - ?, used_quota = used_quota + ?, request_count = request_count + ? where id = ?',
  );
  const log = db.prepare(
    `insert into logs (user_id, created_at, type, content, username, token_name, model_name, quota,
       prompt_tokens, completion_tokens, channel_id, request_id, elapsed_time, is_stream, system_prompt_reset)
     values (?, ?, ${CONSUME_LOG}, ?, ?, ?, ?, ?, ?, ?, 0, '', ?, ?, 0)`,
  );
  const write = db.transaction((batch: Settlement[]) => {
    const { keys, users } = totals(batch);
    const now = nowSeconds();
    for (const [key, quota] of keys) moveKey.run(quota, quota, now, key.id);
    for (const [user, sum] of users) moveUser.run(sum.quota, sum.quota, sum.calls, user.id);
    for (const s of batch) {
      log.run(
        s.user.id,
        s.createdAt,
        CONSUME_CONTENT,
        s.user.username,
        s.key.name,
        PRICED_MODEL,
        s.quota,
        s.usage.promptTokens,
        s.usage.completionTokens,
        s.elapsedMs,
        s.stream ? 1 : 0,
      );
    }
  });
  return {
    load: async () => ({
      keys: (db.prepare(LOAD_KEYS).all() as KeyRow[]).map(keyOf),
      users: (db.prepare(LOAD_USERS).all() as UserRow[]).map(userOf),
    }),
    commit: async (batch) => write(batch),
  };
}

/** A string as a PostgreSQL literal (standard_conforming_strings on, checked at start). */
function pgLiteral(value: string): string {
  if (value.includes('\0')) throw new Error('a NUL byte cannot be stored');
  return `'${value.replaceAll("'", "''")}'`;
}

function pgInteger(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
  return String(value);
}

/** The whole batch as one simple query: BEGIN, the updates, one multi-row insert, COMMIT. */
function pgBatch(batch: Settlement[]): string {
  const { keys, users } = totals(batch);
  const now = pgInteger(nowSeconds());
  const statements = ['begin'];
  for (const [key, quota] of keys) {
    const q = pgInteger(quota);
    statements.push(
      `update tokens set remain_quota = remain_quota - ${q}, used_quota = used_quota + ${q}, accessed_time = ${now} where id = ${pgInteger(key.id)}`,
    );
  }
  for (const [user, sum] of users) {
    const q = pgInteger(sum.quota);
    statements.push(
      `update users set quota = quota - ${q}, used_quota = used_quota + ${q}, request_count = request_count + ${pgInteger(sum.calls)} where id = ${pgInteger(user.id)}`,
    );
  }
  const rows = batch.map((s) =>
    [
      pgInteger(s.user.id),
      pgInteger(s.createdAt),
      String(CONSUME_LOG),
      pgLiteral(CONSUME_CONTENT),
      pgLiteral(s.user.username),
      pgLiteral(s.key.name),
      pgLiteral(PRICED_MODEL),
      pgInteger(s.quota),
      pgInteger(s.usage.promptTokens),
      pgInteger(s.usage.completionTokens),
      '0',
      "''",
      pgInteger(s.elapsedMs),
      s.stream ? 'true' : 'false',
      'false',
    ].join(', '),
  );
  statements.push(
    `insert into logs (user_id, created_at, type, content, username, token_name, model_name, quota,
       prompt_tokens, completion_tokens, channel_id, request_id, elapsed_time, is_stream, system_prompt_reset)
     values (${rows.join('), (')})`,
  );
  statements.push('commit');
  return statements.join(';\n');
}

async function postgresBooks(url: string): Promise<Books> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const conforming = await client.query<{ standard_conforming_strings: string }>(
    'show standard_conforming_strings',
  );
  if (conforming.rows[0]?.standard_conforming_strings !== 'on') {
    throw new Error('PostgreSQL must have standard_conforming_strings on');
  }
  return {
    load: async () => ({
      keys: (await client.query<KeyRow>(LOAD_KEYS)).rows.map(keyOf),
      users: (await client.query<UserRow>(LOAD_USERS)).rows.map(userOf),
    }),
    commit: async (batch) => {
      const script = pgBatch(batch);
      try {
        await client.query(script);
      } catch (error) {
        // A failed statement leaves the simple query's implicit transaction aborted; end it.
        await client.query('rollback').catch(() => undefined);
        throw error;
      }
    },
  };
}

/**
 * Collects the settlements that finish in one event-loop turn and commits them together; while a commit
 * is under way (PostgreSQL), the next batch grows until it is done.
 */
class GroupCommit {
  #pending: Settlement[] = [];
  #scheduled = false;
  #committing = false;

  constructor(private readonly books: Books) {}

  add(settlement: Settlement): void {
    this.#pending.push(settlement);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#scheduled || this.#committing || this.#pending.length === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#flush();
    });
  }

  async #flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    this.#committing = true;
    let committed = true;
    try {
      await this.books.commit(batch);
    } catch (error) {
      committed = false;
      process.stderr.write(`ledger floor: a batch of ${batch.length} failed: ${String(error)}\n`);
    }
    this.#committing = false;
    for (const settlement of batch) settlement.release(committed);
    this.#schedule();
  }
}

const books = process.env.SQL_DSN
  ? await postgresBooks(process.env.SQL_DSN)
  : sqliteBooks(process.env.SQLITE_PATH ?? 'one-api.db');
const loaded = await books.load();
const users = new Map(loaded.users.map((user) => [user.id, user]));
const keys = new Map(
  loaded.keys.flatMap((key) => {
    const { secret, ...rest } = key as Key & { secret: string };
    return users.has(rest.userId) ? [[secret, rest] as const] : [];
  }),
);
const ledger = new GroupCommit(books);

const upstream = new Pool(process.env.UPSTREAM_URL ?? 'http://127.0.0.1:1', {
  connections: 128,
  keepAliveTimeout: 60_000,
});

function refuse(res: http.ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ error: { message, type: 'one_api_error', code: null } });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The key of `Authorization: Bearer sk-<key>` (one-api drops `sk-` and a `-<channel>` suffix). */
function keyFrom(header: string | undefined): Key | undefined {
  const secret =
    (header ?? '')
      .replace(/^Bearer /, '')
      .replace(/^sk-/, '')
      .split('-')[0] ?? '';
  return keys.get(secret);
}

function usageOf(value: unknown): Usage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { prompt_tokens, completion_tokens } = value as Record<string, unknown>;
  const count = (n: unknown) => (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : 0);
  return { promptTokens: count(prompt_tokens), completionTokens: count(completion_tokens) };
}

/** Queues the call's settlement; `release` runs once its transaction committed (or failed). */
function settle(key: Key, stream: boolean, started: number, usage: Usage, release: (ok: boolean) => void) {
  const user = users.get(key.userId)!;
  const quota = quotaFor(usage);
  key.remainQuota -= quota;
  user.quota -= quota;
  ledger.add({
    key,
    user,
    usage,
    quota,
    stream,
    createdAt: nowSeconds(),
    elapsedMs: Math.round(performance.now() - started),
    release,
  });
}

/** The parsed request, with a stream's usage asked for; or why it is refused. */
function parseRequest(bytes: Buffer): { body: Record<string, unknown>; stream: boolean } | string {
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    return 'the request body is not valid JSON';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return 'the request body must be an object';
  const request = body as Record<string, unknown>;
  if (request.model !== PRICED_MODEL) return `the ledger floor serves ${PRICED_MODEL} only`;
  const stream = request.stream === true;
  if (stream) {
    const options = request.stream_options;
    request.stream_options = {
      ...(typeof options === 'object' && options !== null ? options : {}),
      include_usage: true,
    };
  }
  return { body: request, stream };
}

const DONE = 'data: [DONE]';

/** Passes a stream through event by event, holds back `[DONE]`, and keeps the last usage it saw. */
function relayStream(res: http.ServerResponse, body: Readable, onEnd: (usage: Usage) => void) {
  let tail = '';
  let usage: Usage = { promptTokens: 0, completionTokens: 0 };
  body.setEncoding('utf8');
  body.on('data', (text: string) => {
    tail += text;
    if (tail.length > MAX_ANSWER_BYTES) {
      body.destroy();
      res.destroy();
      return;
    }
    let end = tail.indexOf('\n\n');
    let forward = '';
    while (end !== -1) {
      const event = tail.slice(0, end);
      tail = tail.slice(end + 2);
      end = tail.indexOf('\n\n');
      if (event.trim() === DONE) continue;
      forward += `${event}\n\n`;
      if (event.includes('"usage"')) {
        try {
          const found = usageOf((JSON.parse(event.replace(/^data: ?/, '')) as { usage?: unknown }).usage);
          if (found) usage = found;
        } catch {
          // not JSON: passed through, not read
        }
      }
    }
    if (forward) res.write(forward);
  });
  body.on('end', () => {
    if (tail.trim() && tail.trim() !== DONE) res.write(tail);
    onEnd(usage);
  });
  body.on('error', () => res.destroy());
}

function relay(req: http.IncomingMessage, res: http.ServerResponse, bytes: Buffer, started: number) {
  const key = keyFrom(req.headers.authorization);
  if (!key) return refuse(res, 401, 'invalid token');
  if (key.expiredTime !== -1 && key.expiredTime < nowSeconds())
    return refuse(res, 401, 'the token has expired');
  const user = users.get(key.userId)!;
  if ((!key.unlimited && key.remainQuota <= 0) || user.quota <= 0) {
    return refuse(res, 403, 'insufficient quota');
  }
  const parsed = parseRequest(bytes);
  if (typeof parsed === 'string') return refuse(res, 400, parsed);
  upstream
    .request({
      method: 'POST',
      path: req.url ?? '/',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
      body: JSON.stringify(parsed.body),
    })
    .then(({ statusCode, headers, body }) => {
      const contentType = String(headers['content-type'] ?? '');
      if (statusCode !== 200) {
        res.writeHead(statusCode, { 'content-type': contentType });
        body.pipe(res);
        return;
      }
      if (parsed.stream) {
        res.writeHead(200, { 'content-type': contentType });
        relayStream(res, body, (usage) =>
          settle(key, true, started, usage, (ok) => (ok ? res.end(`${DONE}\n\n`) : res.destroy())),
        );
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      body.on('data', (data: Buffer) => {
        size += data.length;
        if (size > MAX_ANSWER_BYTES) body.destroy(new Error('answer too large'));
        else chunks.push(data);
      });
      body.on('error', () => refuse(res, 502, 'the upstream answer failed'));
      body.on('end', () => {
        const answer = Buffer.concat(chunks);
        let usage: Usage = { promptTokens: 0, completionTokens: 0 };
        try {
          usage = usageOf((JSON.parse(answer.toString('utf8')) as { usage?: unknown }).usage) ?? usage;
        } catch {
          // not JSON: billed as no usage
        }
        settle(key, false, started, usage, (ok) => {
          if (!ok) return refuse(res, 503, 'the call could not be recorded');
          res.writeHead(200, { 'content-type': contentType, 'content-length': answer.length });
          res.end(answer);
        });
      });
    })
    .catch(() => refuse(res, 502, 'the upstream did not answer'));
}

const server = http.createServer((req, res) => {
  const started = performance.now();
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (data: Buffer) => {
    size += data.length;
    if (size <= MAX_REQUEST_BYTES) chunks.push(data);
    else if (!res.headersSent) {
      // Answered at once; the connection ends once the answer is out, the rest of the body unread.
      res.setHeader('connection', 'close');
      res.on('finish', () => req.destroy());
      refuse(res, 413, 'the request body is too large');
    }
  });
  req.on('end', () => {
    if (size <= MAX_REQUEST_BYTES) relay(req, res, Buffer.concat(chunks), started);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
// Exit on SIGTERM rather than die by it: node writes a --cpu-prof profile only on a normal exit.
process.once('SIGTERM', () => process.exit(0));
