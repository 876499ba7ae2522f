// A minimal OpenAI-compatible upstream for benchmarks: answers at once, streams 10 chunks and a usage chunk.
import http from 'node:http';

const port = Number(process.env.PORT ?? 0);
const reply = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-3.5-turbo',
  choices: [
    { index: 0, message: { role: 'assistant', content: 'Benchmark answer.' }, finish_reason: 'stop' },
  ],
  usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
});
const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-3.5-turbo', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
const streamBody =
  Array.from({ length: 10 }, (_, i) => chunk(`w${i} `)).join('') +
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-3.5-turbo', choices: [], usage: { prompt_tokens: 12, completion_tokens: 10, total_tokens: 22 } })}\n\n` +
  'data: [DONE]\n\n';

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (data: Buffer) => chunks.push(data));
  req.on('end', () => {
    const stream = Buffer.concat(chunks).includes('"stream":true');
    if (stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(streamBody);
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(reply) });
      res.end(reply);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : port}\n`);
});
