import { budgetPeriodStart } from '@switchyard/contract/budget-period';
import { withUnderpaid } from '@switchyard/contract/log-facts';
import type { NewLogRow } from '../schema';
import { budgetLeft } from './budget';
import {
  type Hold,
  type HoldRequest,
  type HoldResult,
  LeaseLostError,
  type PayerRef,
  type Settlement,
} from './ledger';
import type { StatementName } from './statements';

/**
 * The ledger's transactions, written once as generators that yield statements; an executor answers
 * them. SQLite's answers each one synchronously inside one BEGIN IMMEDIATE; on MySQL (and PostgreSQL
 * with PG_PIPELINE=false) Kysely awaits each one inside a database transaction; PostgreSQL's pipeline
 * sends changes ahead with a guessed row count and replays the program on the real counts
 * (kysely-ledger.ts). Whichever runs it, a program runs whole or not at all. See docs/ledger.md.
 * A `run` answers how many rows it changed; a `change` answers nothing, so the program cannot depend
 * on its count (the pipeline need not check it).
 */
export type LedgerStep =
  | { kind: 'run'; statement: StatementName; params: unknown[] }
  | { kind: 'change'; statement: StatementName; params: unknown[] }
  | { kind: 'get'; statement: StatementName; params: unknown[] }
  | { kind: 'all'; statement: StatementName; params: unknown[] }
  | { kind: 'logs'; logs: NewLogRow[] };

export type Program<T> = Generator<LedgerStep, T, unknown>;

type Row = Record<string, unknown>;

/**
 * The steps a program yields. What the executor answers comes back from the `yield`: how many rows a
 * `run` changed (`(yield run(…)) as number`), the row of a `get`, the rows of an `all`. (Plain objects
 * rather than small generators delegated to with `yield*`, which cost a generator a statement.)
 */
const step =
  (kind: 'run' | 'change' | 'get' | 'all') =>
  (statement: StatementName, ...params: unknown[]): LedgerStep => ({ kind, statement, params });
const run = step('run');
/** A change whose row count the program does not look at. */
const change = step('change');
const get = step('get');
const all = step('all');

const num = (value: unknown) => Number(value ?? 0);

/** The settlement's fast path could not charge every call in full: run the careful one instead. */
export class NeedsCarefulSettlement extends Error {}

/** Whether the key carries the hold: it has a limited quota or a periodic budget. */
const tokenHolds = (payer: PayerRef) => !payer.unlimitedToken || Boolean(payer.budgetPeriod);
const tokenShare = (payer: PayerRef, amount: number) => (tokenHolds(payer) ? amount : 0);

export function* registerProgram(holder: string, expiresAtMs: number): Program<void> {
  yield change('registerHolder', holder, expiresAtMs);
}

export function* renewProgram(holder: string, expiresAtMs: number): Program<boolean> {
  return ((yield run('renewHolder', expiresAtMs, holder)) as number) === 1;
}

/** Guarded holds: each is taken whole from what the user (and a limited key) can spend, or refused. */
export function* holdProgram(
  holder: string,
  leaseUntilMs: number,
  batch: HoldRequest[],
  now: number,
): Program<HoldResult[]> {
  // Renewing the lease inside the transaction orders it against a sweep of this holder.
  if (((yield run('renewHolder', leaseUntilMs, holder)) as number) !== 1) throw new LeaseLostError(holder);
  const results: HoldResult[] = new Array(batch.length);
  for (const index of lockOrder(batch)) {
    const request = batch[index] as HoldRequest;
    const user = (yield get('readUser', request.userId)) as Row | undefined;
    const userSpare = user ? num(user.quota) - num(user.held_quota) - request.amount : -1;
    if (userSpare < 0) {
      results[index] = { ok: false, refusal: 'user-quota' };
      continue;
    }
    let spare = userSpare;
    if (tokenHolds(request)) {
      const token = (yield get('readToken', request.tokenId)) as Row | undefined;
      const held = num(token?.held_quota) + request.amount;
      const tokenSpare = request.unlimitedToken ? spare : num(token?.remain_quota) - held;
      if (!token || tokenSpare < 0) {
        results[index] = { ok: false, refusal: 'token-quota' };
        continue;
      }
      const budget = budgetLeft(token, now);
      if (budget !== undefined && budget - held < 0) {
        results[index] = { ok: false, refusal: 'token-budget' };
        continue;
      }
      spare = Math.min(spare, tokenSpare, budget === undefined ? spare : budget - held);
    }
    // Ahead: at most what was asked, and at most half of what stays spendable above the floor.
    const room = Math.floor((spare - request.richFloor) / 2);
    const ahead = Math.min(request.ahead, room) >= request.amount ? Math.min(request.ahead, room) : 0;
    const taken = request.amount + ahead;
    yield change('holdUser', taken, request.userId);
    if (tokenHolds(request)) yield change('holdToken', taken, now, request.tokenId);
    yield change('addHold', holder, request.userId, request.tokenId, taken, tokenShare(request, taken));
    results[index] = { ok: true, taken, spendable: spare - ahead };
  }
  return results;
}

/**
 * The statement that takes a hold's row down unless a sweep already did (the row is gone: it answers
 * 0); none for an empty hold.
 */
function releaseHoldRow(hold: Hold): LedgerStep | undefined {
  if (hold.amount <= 0) return undefined;
  const tokenAmount = tokenShare(hold, hold.amount);
  return run(
    'releaseHold',
    hold.amount,
    tokenAmount,
    hold.holder,
    hold.userId,
    hold.tokenId,
    hold.amount,
    tokenAmount,
  );
}

/** Gives back one hold unless a sweep already did (its hold row is gone). */
function* releaseOne(hold: Hold): Program<void> {
  const release = releaseHoldRow(hold);
  if (!release || (yield release) !== 1) return;
  yield change('releaseUser', hold.amount, hold.userId);
  const tokenAmount = tokenShare(hold, hold.amount);
  if (tokenAmount > 0) yield change('releaseToken', tokenAmount, hold.tokenId);
}

/** Holds of the same holder, payer and kind of key added up: one statement each. */
function mergeHolds(batch: Hold[]): Hold[] {
  // A batch of one call (every batch at concurrency 1): nothing to add up.
  if (batch.length === 1) return batch;
  const merged = new Map<string, Hold>();
  for (const hold of batch) {
    const key = `${hold.holder}\u0000${hold.userId}\u0000${hold.tokenId}\u0000${hold.unlimitedToken}\u0000${hold.budgetPeriod ?? ''}`;
    const found = merged.get(key);
    if (found) found.amount += hold.amount;
    else merged.set(key, { ...hold });
  }
  return [...merged.values()].sort(byPayer);
}

/**
 * Rows are locked in one order in every transaction (users, then keys, by id) so that two processes'
 * batches never wait on each other in a circle (PostgreSQL takes a second to find a deadlock).
 */
const byPayer = (a: PayerRef, b: PayerRef) => a.userId - b.userId || a.tokenId - b.tokenId;

/** The indexes of a batch in lock order. */
const lockOrder = (batch: PayerRef[]) =>
  batch.map((_, index) => index).sort((a, b) => byPayer(batch[a] as PayerRef, batch[b] as PayerRef));

const ascending = <T>(map: Map<number, T>) => [...map].sort(([a], [b]) => a - b);

const addTo = (map: Map<number, number>, id: number, amount: number) =>
  map.set(id, (map.get(id) ?? 0) + amount);

/** The ids of both maps, ascending (mostly the same ids: no Set built for them). */
function idsOf(a: Map<number, unknown>, b: Map<number, unknown>): number[] {
  const ids = Array.from(a.keys());
  for (const id of b.keys()) if (!a.has(id)) ids.push(id);
  return ids.length > 1 ? ids.sort((x, y) => x - y) : ids;
}

/**
 * Settles a batch with one charge per user, key and channel. A charge must be covered by what the
 * account can spend once the batch's own holds are released (released by the charge's own
 * statement); when one is not (an administrator lowered the balance, or calls cost more than they
 * held), the whole batch goes the careful way. `seq`, the holder's batch number, is marked settled in
 * the same transaction (left out where the ledger keeps it itself: see ProgramLedger).
 */
export function* settleFastProgram(
  holder: string,
  seq: number | undefined,
  batch: Settlement[],
  now: number,
): Program<number[]> {
  if (seq !== undefined) yield change('markSettled', seq, holder);
  // What each user and key gets back of the batch's holds (a hold a sweep gave back: nothing).
  const userReleases = new Map<number, number>();
  const tokenReleases = new Map<number, number>();
  for (const hold of mergeHolds(batch)) {
    const release = releaseHoldRow(hold);
    if (!release || (yield release) !== 1) continue;
    addTo(userReleases, hold.userId, hold.amount);
    const tokenAmount = tokenShare(hold, hold.amount);
    if (tokenAmount > 0) addTo(tokenReleases, hold.tokenId, tokenAmount);
  }
  const users = new Map<number, { cost: number; calls: number }>();
  const tokens = new Map<number, { cost: number; limited: boolean; budgetPeriod?: string }>();
  const channels = new Map<number, { cost: number; elapsedMs: number }>();
  for (const call of batch) {
    if (call.giveBack) continue;
    const user = users.get(call.userId) ?? { cost: 0, calls: 0 };
    user.cost += call.cost;
    user.calls += 1;
    users.set(call.userId, user);
    const token = tokens.get(call.tokenId) ?? { cost: 0, limited: false };
    token.cost += call.cost;
    token.limited ||= !call.unlimitedToken;
    token.budgetPeriod ??= call.budgetPeriod;
    tokens.set(call.tokenId, token);
    const channel = channels.get(call.channelId) ?? { cost: 0, elapsedMs: 0 };
    channel.cost += call.cost;
    channel.elapsedMs = call.elapsedMs;
    channels.set(call.channelId, channel);
  }
  for (const userId of idsOf(users, userReleases)) {
    const release = userReleases.get(userId) ?? 0;
    const user = users.get(userId);
    if (!user) yield change('releaseUser', release, userId);
    else if (
      ((yield run(
        'chargeUser',
        release,
        user.cost,
        user.cost,
        user.calls,
        userId,
        release,
        user.cost,
        user.cost,
      )) as number) !== 1
    )
      throw new NeedsCarefulSettlement();
  }
  for (const tokenId of idsOf(tokens, tokenReleases)) {
    const release = tokenReleases.get(tokenId) ?? 0;
    const token = tokens.get(tokenId);
    if (!token) {
      yield change('releaseToken', release, tokenId);
      continue;
    }
    const { cost, limited, budgetPeriod } = token;
    if (!limited) yield change('useToken', release, cost, now, tokenId);
    else if (
      ((yield run('chargeToken', release, cost, cost, now, tokenId, release, cost, cost)) as number) !== 1
    )
      throw new NeedsCarefulSettlement();
    const start = budgetPeriodStart(budgetPeriod, now);
    if (start !== undefined) {
      // Counted into the period now running (a new one starts from nothing), within the budget.
      const counted = (yield run(
        'chargeBudget',
        start,
        cost,
        cost,
        start,
        tokenId,
        budgetPeriod,
        start,
        cost,
      )) as number;
      if (counted !== 1) throw new NeedsCarefulSettlement();
    }
  }
  for (const [channelId, { cost, elapsedMs }] of ascending(channels))
    yield change('chargeChannel', cost, elapsedMs, channelId);
  const logs: NewLogRow[] = [];
  for (const call of batch) if (call.log) logs.push(call.log);
  if (logs.length > 0) yield { kind: 'logs', logs };
  return batch.map((call) => (call.giveBack ? 0 : call.cost));
}

/**
 * Settles call by call with the rows locked: each is charged its cost when the account can spend
 * it, otherwise what is left of the balance (never below zero), and its log says so.
 */
export function* settleCarefulProgram(
  holder: string,
  seq: number | undefined,
  batch: Settlement[],
  now: number,
): Program<number[]> {
  if (seq !== undefined) yield change('markSettled', seq, holder);
  const charges: number[] = new Array(batch.length);
  const logs: NewLogRow[] = [];
  for (const index of lockOrder(batch)) {
    const call = batch[index] as Settlement;
    yield* releaseOne(call);
    if (call.giveBack) {
      charges[index] = 0;
      continue;
    }
    let charge = call.cost;
    const user = (yield get('readUser', call.userId)) as Row | undefined;
    if (user) charge = affordable(charge, num(user.quota), num(user.held_quota));
    const token = (yield get('readToken', call.tokenId)) as Row | undefined;
    const limited = token !== undefined && !call.unlimitedToken;
    if (limited) charge = affordable(charge, num(token.remain_quota), num(token.held_quota));
    const budget = token ? budgetLeft(token, now) : undefined;
    if (token && budget !== undefined) charge = affordable(charge, budget, num(token.held_quota));
    if (user) yield change('chargeUserExactly', charge, charge, 1, call.userId);
    if (limited) yield change('chargeTokenExactly', charge, charge, now, call.tokenId);
    else yield change('useToken', 0, charge, now, call.tokenId);
    if (token && budget !== undefined) {
      const start = budgetPeriodStart(token.budget_period as string, now) as number;
      const spent = num(token.budget_quota) - budget;
      yield change('setBudgetUsed', spent + charge, start, call.tokenId);
    }
    yield change('chargeChannel', charge, call.elapsedMs, call.channelId);
    if (call.log) {
      logs.push(
        charge === call.cost
          ? call.log
          : {
              ...call.log,
              quota: charge,
              content: `${call.log.content} (cost ${call.cost}, charged the ${charge} left)`,
              facts: withUnderpaid(call.log.facts, { cost: call.cost, charged: charge }),
            },
      );
    }
    charges[index] = charge;
  }
  if (logs.length > 0) yield { kind: 'logs', logs };
  return charges;
}

/** The cost when the spendable balance covers it; else what the balance holds, never below zero. */
function affordable(cost: number, balance: number, held: number): number {
  if (balance - held >= cost) return cost;
  return Math.max(0, Math.min(cost, balance));
}

/** Whether a batch numbered `seq` was already committed (a retry after an unknown outcome). */
export function* settledAlreadyProgram(holder: string, seq: number): Program<boolean> {
  const row = (yield get('readSettled', holder)) as Row | undefined;
  return row !== undefined && num(row.settled_seq) >= seq;
}

/**
 * Gives back the holds of every other holder whose lease ran out (`self` is alive: it is sweeping);
 * prunes holders released long ago.
 */
export function* sweepProgram(nowMs: number, pruneBeforeMs: number, self: string): Program<number> {
  let swept = 0;
  for (const { holder } of (yield all('expiredHolders', nowMs, self)) as Row[]) {
    // Claimed with a guarded update, so two sweeping processes cannot both give the holds back.
    if (((yield run('claimHolder', nowMs, holder, nowMs)) as number) !== 1) continue;
    for (const row of (yield all('holdsOf', holder)) as Row[]) {
      yield change('releaseUser', num(row.amount), num(row.user_id));
      if (num(row.token_amount) > 0) yield change('releaseToken', num(row.token_amount), num(row.token_id));
    }
    yield change('dropHolds', holder);
    swept += 1;
  }
  yield change('pruneHolders', pruneBeforeMs);
  return swept;
}

export function* heldByOthersProgram(userId: number, holder: string): Program<number> {
  const row = (yield get('heldByOthers', userId, holder)) as Row | undefined;
  return num(row?.held);
}
