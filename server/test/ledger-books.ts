import { expect } from 'vitest';
import type { Settlement } from '../src/db/ledger/ledger';
import type { NewLogRow } from '../src/db/schema';
import type { Client, EnvelopeBody, TestApp } from './harness';
import { balances, consumeLogs } from './relay-setup';
import { waitFor } from './wait';

/** A user and key's books, read straight from the database. */
export async function books(t: Pick<TestApp, 'db'>, userId: number, tokenId: number) {
  const balance = await balances(t, userId, tokenId);
  const logs = await consumeLogs(t, userId);
  return { ...balance, logged: logs.reduce((sum, log) => sum + Number(log.quota), 0), logs: logs.length };
}

type Books = Awaited<ReturnType<typeof books>>;

/** The books once `holds` is true of them (a give-back landed, say); fails naming `what` after 10 s. */
export function booksOnce(
  t: Pick<TestApp, 'db'>,
  userId: number,
  tokenId: number,
  holds: (now: Books) => boolean,
  what: string,
): Promise<Books> {
  return waitFor(
    async () => {
      const now = await books(t, userId, tokenId);
      return holds(now) ? now : undefined;
    },
    { what, intervalMs: 50 },
  );
}

/**
 * The ledger's invariants for one account once nothing is in flight: nothing below zero, nothing
 * held, the balance plus what was spent is what was put in, and the logs add up to what was spent.
 */
export async function expectBalancedBooks(
  t: Pick<TestApp, 'db'>,
  account: { userId: number; tokenId: number; userFunds: number; tokenFunds?: number },
) {
  const now = await books(t, account.userId, account.tokenId);
  expect(now.quota).toBeGreaterThanOrEqual(0);
  expect(now.remain).toBeGreaterThanOrEqual(0);
  expect([now.held, now.tokenHeld]).toEqual([0, 0]);
  expect(now.quota + now.usedQuota).toBe(account.userFunds);
  if (account.tokenFunds !== undefined) expect(now.remain + now.tokenUsed).toBe(account.tokenFunds);
  expect(now.logged).toBe(now.usedQuota);
  return now;
}

/** Sets a key's remain_quota the way its owner's console does (an absolute value). */
export async function setKeyQuota(owner: Client, tokenId: number, remainQuota: number): Promise<void> {
  const found = await owner.get<EnvelopeBody<Record<string, unknown>>>(`/api/token/${tokenId}`);
  const { name, expired_time, unlimited_quota, models, subnet } = found.body.data!;
  const saved = await owner.put('/api/token/', {
    id: tokenId,
    name,
    expired_time,
    unlimited_quota,
    models: models ?? '',
    subnet: subnet ?? '',
    remain_quota: remainQuota,
  });
  expect(saved.body.success, saved.body.message).toBe(true);
}

/** Sets a user's quota the way the administrator's console does (an absolute value). */
export async function setUserQuota(root: Client, userId: number, quota: number): Promise<void> {
  const saved = await root.put('/api/user/', { id: userId, quota });
  expect(saved.body.success, saved.body.message).toBe(true);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A settlement of `holder` that charges no one and only writes `log`: the ledger's way to its logs alone. */
export const logOnly = (holder: string, log: NewLogRow): Settlement => ({
  holder,
  userId: -1,
  tokenId: -1,
  unlimitedToken: true,
  amount: 0,
  channelId: -1,
  cost: 0,
  elapsedMs: 0,
  log,
});
