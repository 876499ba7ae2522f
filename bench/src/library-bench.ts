// The hand-written pieces a maintained library could replace, timed against that library on the same
// work (docs/decisions.md, "Hand-written or a library", quotes these figures): server-sent-event
// parsing (the relay's parser is a thin wrapper over eventsource-parser, so this is the wrapper's cost),
// the /api security headers against @fastify/helmet, and the session cookie against iron-webcrypto
// (what iron-session seals with). Interleaved repeats; medians. `npm run bench:libraries -w bench`.
import helmet from '@fastify/helmet';
import { createParser } from 'eventsource-parser';
import Fastify, { type FastifyInstance } from 'fastify';
import * as Iron from 'iron-webcrypto';
import { apiHeaders } from '../../server/src/api/security-headers';
import { SessionCodec } from '../../server/src/api/session';
import { SseParser } from '../../server/src/relay/pipeline/sse';

const REPEATS = 7;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** Runs each case's measure `REPEATS` times, interleaved, after one warm-up each; prints the medians. */
async function compare(title: string, unit: string, cases: Record<string, () => Promise<number> | number>) {
  const names = Object.keys(cases);
  for (const name of names) await cases[name]?.();
  const results = new Map<string, number[]>(names.map((name) => [name, []]));
  for (let repeat = 0; repeat < REPEATS; repeat++)
    for (const name of names)
      results.get(name)?.push(await (cases[name] as () => Promise<number> | number)());
  const baseline = median(results.get(names[names.length - 1] as string) ?? []);
  console.log(`\n${title} (median of ${REPEATS})`);
  for (const [name, values] of results) {
    const value = median(values);
    console.log(
      `  ${name.padEnd(34)} ${value.toFixed(2).padStart(9)} ${unit}  ${(value / baseline).toFixed(2)}×`,
    );
  }
}

async function timed(times: number, work: (i: number) => unknown): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < times; i++) await work(i);
  return Number(process.hrtime.bigint() - started) / times;
}

// --- server-sent events: an OpenAI chat stream of 401 events, cut into 1–4 KiB chunks
const EVENTS = 400;
const streamBytes = new TextEncoder().encode(
  `${Array.from({ length: EVENTS }, (_, i) => `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: `token ${i} ` } }] })}\n\n`).join('')}data: [DONE]\n\n`,
);
const chunked = Array.from({ length: 16 }, (_, seed) => {
  const chunks: Uint8Array[] = [];
  let state = seed + 1;
  for (let start = 0; start < streamBytes.length; ) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const size = 1024 + (state % 3072);
    chunks.push(streamBytes.subarray(start, start + size));
    start += size;
  }
  return chunks;
});
const perEvent = (parse: (chunks: Uint8Array[]) => number) => () => {
  const streams = 400;
  const started = process.hrtime.bigint();
  let events = 0;
  for (let i = 0; i < streams; i++) events += parse(chunked[i % chunked.length] as Uint8Array[]);
  if (events !== streams * (EVENTS + 1)) throw new Error(`read ${events} events`);
  return Number(process.hrtime.bigint() - started) / events;
};

await compare('SSE parsing', 'ns/event', {
  'relay SseParser (wrapper)': perEvent((chunks) => {
    const parser = new SseParser(64 * 1024 * 1024);
    let events = 0;
    for (const chunk of chunks) events += parser.push(chunk).length;
    return events + parser.end().length;
  }),
  'eventsource-parser alone': perEvent((chunks) => {
    let events = 0;
    const decoder = new TextDecoder();
    const parser = createParser({ onEvent: () => void events++ });
    for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
    parser.feed(`${decoder.decode()}\n\n`);
    return events;
  }),
});

// --- security headers on an /api answer, through Fastify (inject: no sockets, the same for both)
async function app(setup: (app: FastifyInstance) => Promise<void> | void): Promise<FastifyInstance> {
  const instance = Fastify();
  await setup(instance);
  instance.get('/api/status', async () => ({ success: true, message: '', data: { version: 'bench' } }));
  await instance.ready();
  return instance;
}
const plain = await app(() => {});
const ours = await app((instance) => void instance.addHook('onRequest', apiHeaders));
const withHelmet = await app(async (instance) => {
  await instance.register(helmet);
});
const perRequest = (instance: FastifyInstance) => () =>
  timed(4_000, () => instance.inject({ method: 'GET', url: '/api/status' })).then((ns) => ns / 1000);
await compare('Security headers on an /api answer', 'µs/request', {
  'no headers (Fastify alone)': perRequest(plain),
  'ours (apiHeaders)': perRequest(ours),
  '@fastify/helmet (defaults)': perRequest(withHelmet),
});

// --- the session cookie: seal at sign-in, open on every console call
const secret = 'a-session-secret-of-32-characters-or-more!';
const session = { id: 42, username: 'someone', role: 1, status: 1, epoch: 3 };
const codec = new SessionCodec(secret);
const sealed = codec.seal(session);
const ironSealed = await Iron.seal(session, secret, Iron.defaults);
await compare('Session cookie, opened (every console call)', 'µs/open', {
  'ours (AES-256-GCM, key derived once)': () =>
    timed(4_000, () => codec.open(sealed)).then((ns) => ns / 1000),
  'iron-webcrypto (unseal)': () =>
    timed(1_000, () => Iron.unseal(ironSealed, secret, Iron.defaults)).then((ns) => ns / 1000),
});
await compare('Session cookie, sealed (sign-in)', 'µs/seal', {
  'ours (AES-256-GCM)': () => timed(4_000, () => codec.seal(session)).then((ns) => ns / 1000),
  'iron-webcrypto (seal)': () =>
    timed(1_000, () => Iron.seal(session, secret, Iron.defaults)).then((ns) => ns / 1000),
});
await Promise.all([plain.close(), ours.close(), withHelmet.close()]);
