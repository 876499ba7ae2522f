// The baseline for the gateway's overhead: the least a Node proxy can do (node:http in front of an
// undici pool, body and headers passed through, no checks, billing or logs). It runs on the gateway's
// core with the gateway's node flags, so the difference between the two is what the gateway's own work
// costs on this machine today.
import http from 'node:http';
import { Pool } from 'undici';

const upstream = new Pool(process.env.UPSTREAM_URL ?? 'http://127.0.0.1:1', {
  connections: 128,
  keepAliveTimeout: 60_000,
});

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (data: Buffer) => chunks.push(data));
  req.on('end', () => {
    upstream
      .request({
        method: 'POST',
        path: req.url ?? '/',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
        body: Buffer.concat(chunks),
      })
      .then(({ statusCode, headers, body }) => {
        res.writeHead(statusCode, { 'content-type': String(headers['content-type'] ?? '') });
        body.on('data', (data: Buffer) => res.write(data));
        body.on('end', () => res.end());
        body.on('error', () => res.destroy());
      })
      .catch(() => {
        res.writeHead(502);
        res.end();
      });
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
// Exit on SIGTERM rather than die by it: node writes a --cpu-prof profile only on a normal exit.
process.once('SIGTERM', () => process.exit(0));
