import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientGone } from '../../src/relay/client-signal';
import { UpstreamClient } from '../../src/relay/upstream';

const BUDGET_MS = 400;

describe('a call’s upstream budget (RELAY_TIMEOUT)', () => {
  let server: http.Server;
  let url: string;
  const client = new UpstreamClient({
    relayTimeoutMs: BUDGET_MS,
    relayConnectTimeoutMs: 1_000,
    relayAnswerLimit: 1024,
  });

  beforeAll(async () => {
    // Takes every request and never answers.
    server = http.createServer(() => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
  });
  afterAll(async () => {
    await client.close().catch(() => {});
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('has run out whenever an attempt timed out: a timer may fire a fraction of a millisecond early', async () => {
    // Node's timers count whole milliseconds of the loop's clock; the budget is kept in performance.now().
    const early: number[] = [];
    for (let i = 0; i < 100; i++) {
      const call = client.forCall(performance.now() - BUDGET_MS + 3 + (i % 10) / 10);
      const error = await call
        .send({ url, method: 'POST', headers: {}, body: '{}' }, new ClientGone())
        .catch((failure: unknown) => failure);
      expect(error).toMatchObject({ status: 504, code: 'upstream_timeout' });
      // What decides on a retry: no time may be left once the budget said it had run out.
      if (call.remainingMs() > 0) early.push(call.remainingMs());
    }
    expect(early).toEqual([]);
  });

  it('is the only clock on an answer’s head: one running out is a 504, never a channel called unreachable', async () => {
    // undici's own head timer counts in 499 ms ticks and dates a timer back to the tick before it was
    // set: with a budget of two ticks it fired at or before the budget, failing the attempt as
    // "unreachable" (502), worth a retry the budget no longer allows. Sends spread over a whole tick.
    const twoTicks = new UpstreamClient({
      relayTimeoutMs: 998,
      relayConnectTimeoutMs: 1_000,
      relayAnswerLimit: 1024,
    });
    try {
      const errors = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          await new Promise((resolve) => setTimeout(resolve, i * 60));
          return twoTicks
            .send({ url, method: 'POST', headers: {}, body: '{}' }, new ClientGone())
            .catch((failure: unknown) => failure);
        }),
      );
      for (const error of errors) expect(error).toMatchObject({ status: 504, code: 'upstream_timeout' });
    } finally {
      await twoTicks.close().catch(() => {});
    }
  });
});
