import net from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiHandler } from './fakes/openai';
import { startTestApp, type TestApp } from './harness';
import { balances, type Customer, createChannel, createCustomer } from './relay-setup';

/**
 * RELAY_TIMEOUT of this run, and what the answer may take beyond it (scheduling, the error's own way
 * back, on a busy CI). A budget per attempt, not per call, would take twice the budget. Three times
 * the connect timeout (1 s): a call that gave up connecting has 2 s left for the next channel (with
 * 1 s left, a busy CI hour once ran out of it).
 */
const BUDGET_MS = 3_000;
const MARGIN_MS = 1_500;

/** A TCP server that accepts and never says a word: TLS to it never completes, HTTP never gets a head. */
async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T | unknown; ms: number }> {
  const start = performance.now();
  const result = await work().catch((error: unknown) => error);
  return { result, ms: performance.now() - start };
}

const ask = (customer: Customer, model: string) =>
  customer.openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }] });

describe('RELAY_TIMEOUT is the whole call’s budget, retries included', () => {
  let t: TestApp;
  let hanging: HttpFake;
  let healthy: HttpFake;
  let silent: Awaited<ReturnType<typeof silentServer>>;
  let customer: Customer;

  beforeAll(async () => {
    t = await startTestApp({ env: { RELAY_TIMEOUT: String(BUDGET_MS / 1000), RELAY_CONNECT_TIMEOUT: '1' } });
    // Accepts the request, then never answers.
    hanging = await new HttpFake(() => new Promise<void>(() => {})).start();
    healthy = await new HttpFake(
      openAiHandler({ reply: 'one two three four five', chunkDelayMs: 700 }),
    ).start();
    silent = await silentServer();
    const root = await t.root();
    await root.put('/api/option/', { key: 'RetryTimes', value: '2' });
    // gpt-4: two channels that both hang once connected.
    for (const priority of [10, 5])
      await createChannel(root, {
        name: `hang-${priority}`,
        base_url: hanging.url,
        models: 'gpt-4',
        priority,
      });
    // gpt-3.5-turbo: first a channel that cannot be connected to (TLS never completes), then a healthy one.
    await createChannel(root, {
      name: 'unconnectable',
      base_url: `https://127.0.0.1:${silent.port}`,
      models: 'gpt-3.5-turbo',
      priority: 10,
    });
    await createChannel(root, {
      name: 'healthy',
      base_url: healthy.url,
      models: 'gpt-3.5-turbo',
      priority: 0,
    });
    customer = await createCustomer(t, 'patient');
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([hanging?.close(), healthy?.close(), silent?.close()]);
  });

  it('answers two hanging channels with an OpenAI-style 504 within the budget, and bills nothing', async () => {
    // Credit held ahead by earlier calls goes back first, so its timer cannot move `held` mid-test.
    await t.app.services.relay.settled();
    const before = await balances(t, customer.userId, customer.token.id);
    const calls = hanging.requests.length;
    const { result, ms } = await timed(() => ask(customer, 'gpt-4'));
    expect(result).toBeInstanceOf(OpenAI.APIError);
    expect(result).toMatchObject({ status: 504, code: 'upstream_timeout' });
    expect(ms).toBeGreaterThanOrEqual(BUDGET_MS - 50);
    expect(ms).toBeLessThan(BUDGET_MS + MARGIN_MS);
    // The first channel took the whole budget: no time was left for the second.
    expect(hanging.requests.length - calls).toBe(1);
    // The client has its 504 while the server still winds the call down: its hold comes back just after.
    const deadline = Date.now() + 5_000;
    let after = before;
    do {
      await t.app.services.relay.settled();
      after = await balances(t, customer.userId, customer.token.id);
    } while (JSON.stringify(after) !== JSON.stringify(before) && Date.now() < deadline);
    expect(after).toEqual(before);
  });

  it('fails fast on a channel it cannot connect to and answers from the next with what is left', async () => {
    const { result, ms } = await timed(() => ask(customer, 'gpt-3.5-turbo'));
    expect(result).toMatchObject({ choices: [{ message: { content: 'one two three four five' } }] });
    // The unconnectable channel was tried first and given up after RELAY_CONNECT_TIMEOUT (1 s): had
    // connecting taken the whole budget, nothing would be left for the next and the answer would be a
    // 504. (How far inside the budget the answer lands depends on the machine's hour.)
    expect(ms).toBeGreaterThanOrEqual(1_000 - 50);
    expect(ms).toBeLessThan(BUDGET_MS + MARGIN_MS);
  });

  it('lets a stream that has begun run past the budget', async () => {
    const { result, ms } = await timed(async () => {
      const stream = await customer.openai.chat.completions.create({
        model: 'gpt-3.5-turbo',
        messages: [{ role: 'user', content: 'x' }],
        stream: true,
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      return text;
    });
    expect(result).toBe('one two three four five');
    expect(ms).toBeGreaterThan(BUDGET_MS + 500);
  });
});
