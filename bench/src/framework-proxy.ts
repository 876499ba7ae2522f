// The bare proxy's work inside Fastify, the gateway's HTTP framework: the body read as one buffer by a
// content-type parser, the upstream's answer sent through the reply. With FRAMEWORK_METER=1, a
// preParsing hook passes the body through a Transform that counts it and refreshes an idle timer, as
// the gateway's request body budget does. `npm run bench:framework` measures both against the bare
// proxy: what the framework alone costs a call, before any of the gateway's own work.
//
// Environment: UPSTREAM_URL, PORT, FRAMEWORK_METER.
import { Transform } from 'node:stream';
import Fastify from 'fastify';
import { Pool } from 'undici';

const BODY_IDLE_MS = 30_000;
const BODY_BUDGET = 64 << 20;
/** Bytes of bodies counted and not yet given back, checked against a budget as the gateway does. */
let bodiesHeld = 0;

const upstream = new Pool(process.env.UPSTREAM_URL ?? 'http://127.0.0.1:1', {
  connections: 128,
  keepAliveTimeout: 60_000,
});

const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

if (process.env.FRAMEWORK_METER === '1') {
  app.addHook('preParsing', async (_request, reply, payload) => {
    let held = 0;
    const idle = setTimeout(() => counter.destroy(new Error('body timeout')), BODY_IDLE_MS);
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        idle.refresh();
        if (bodiesHeld + chunk.length > BODY_BUDGET) {
          callback(new Error('body budget full'));
          return;
        }
        held += chunk.length;
        bodiesHeld += chunk.length;
        callback(null, chunk);
      },
      flush(callback) {
        clearTimeout(idle);
        callback();
      },
    });
    reply.raw.once('close', () => {
      clearTimeout(idle);
      bodiesHeld -= held;
      held = 0;
    });
    return payload.pipe(counter);
  });
}

app.post('/v1/chat/completions', async (request, reply) => {
  const { statusCode, headers, body } = await upstream.request({
    method: 'POST',
    path: request.url,
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
    body: request.body as Buffer,
  });
  return reply
    .code(statusCode)
    .header('content-type', String(headers['content-type'] ?? ''))
    .send(body);
});

app.server.keepAliveTimeout = 60_000;
app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' }).then(() => {
  const address = app.server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
