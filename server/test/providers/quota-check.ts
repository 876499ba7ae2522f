import { resolveCacheReadRatio, resolveCacheWriteRatio } from '@switchyard/contract/cache-ratios';
import { resolveCompletionRatio, resolveModelRatio } from '@switchyard/contract/model-ratios';
import type { TestApp } from '../harness';
import { balances, type Customer, consumeLogs } from '../relay-setup';

/**
 * What a call must cost with the default ratios: ceil(((prompt − cached − written) + cached × cache
 * read ratio + written × cache write ratio + completion × completion ratio) × model ratio).
 */
export function expectedQuota(
  model: string,
  channelType: number,
  usage: { prompt: number; completion: number; cached?: number; written?: number },
): number {
  const { prompt, completion, cached = 0, written = 0 } = usage;
  const tokens =
    prompt -
    cached -
    written +
    cached * resolveCacheReadRatio(model, channelType) +
    written * resolveCacheWriteRatio(model, channelType) +
    completion * resolveCompletionRatio(model, channelType);
  return Math.ceil(Number((tokens * resolveModelRatio(model, channelType)).toPrecision(12)));
}

/** Runs `work` and answers how much quota it took from the customer once settled, and the newest log. */
export async function spentBy(t: TestApp, customer: Customer, work: () => Promise<unknown>) {
  await t.app.services.relay.settled();
  const before = await balances(t, customer.userId, customer.token.id);
  await work();
  await t.app.services.relay.settled();
  const after = await balances(t, customer.userId, customer.token.id);
  const log = (await consumeLogs(t, customer.userId)).at(-1);
  return { quota: before.quota - after.quota, tokenQuota: before.remain - after.remain, log };
}

/** Runs `work`, which must fail, and checks that nothing was charged or logged. */
export async function expectRefunded(t: TestApp, customer: Customer, work: () => Promise<unknown>) {
  // Earlier calls may still be settling; their charges must not count here.
  await t.app.services.relay.settled();
  const before = await balances(t, customer.userId, customer.token.id);
  const logsBefore = (await consumeLogs(t, customer.userId)).length;
  const error = await work().then(
    () => undefined,
    (failure: unknown) => failure,
  );
  await t.app.services.relay.settled();
  const after = await balances(t, customer.userId, customer.token.id);
  const logsAfter = (await consumeLogs(t, customer.userId)).length;
  return {
    error,
    refunded: after.quota === before.quota && after.remain === before.remain,
    logged: logsAfter > logsBefore,
  };
}
