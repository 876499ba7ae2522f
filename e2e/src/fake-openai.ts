import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI upstream on 127.0.0.1 for channel tests and balance reads. The key chooses the
 * behaviour: `sk-delay-<ms>` answers after that many milliseconds, `sk-bad` is refused as OpenAI
 * refuses a wrong key; every other key answers at once.
 */
export interface FakeOpenAi {
  url: string;
  /** Chat requests received, with the key each one carried. */
  chats: Array<{ key: string; model: string }>;
  /**
   * Holds every chat answer from now on until `count` chats wait, then answers them all at once:
   * answers that must arrive together, however slowly their requests were made. Resolves on release.
   */
  holdChatsUntil(count: number): Promise<void>;
  close(): Promise<void>;
}

/** What the billing endpoints report: a hard limit of $100 and $25 used, so the balance reads $75. */
const HARD_LIMIT_USD = 100;
const TOTAL_USAGE_CENTS = 2500;

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>;
  } catch {
    return {};
  }
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const chats: FakeOpenAi['chats'] = [];
  let hold: { count: number; waiting: Array<() => void>; released: () => void } | undefined;
  const waitForHold = () =>
    new Promise<void>((resolve) => {
      if (!hold) return resolve();
      hold.waiting.push(resolve);
      if (hold.waiting.length < hold.count) return;
      const { waiting, released } = hold;
      hold = undefined;
      for (const answer of waiting) answer();
      released();
    });
  const server: Server = createServer(async (req, res) => {
    // OpenAI sends `Authorization: Bearer`, Azure an `api-key` header.
    const key =
      (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '') || String(req.headers['api-key'] ?? '');
    const path = (req.url ?? '').split('?')[0] ?? '';
    const body = await readJson(req);
    if (key === 'sk-bad') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      send(res, 401, {
        error: {
          message: 'Incorrect API key provided: sk-bad',
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      });
      return;
    }
    const delay = Number(/^sk-delay-(\d+)$/.exec(key)?.[1] ?? 0);
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    if (path.endsWith('/chat/completions')) {
      await waitForHold();
      const model = String(body.model ?? '');
      chats.push({ key, model });
      send(res, 200, {
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'Hello!' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 8, completion_tokens: 2, total_tokens: 10 },
      });
      return;
    }
    if (path.endsWith('/dashboard/billing/subscription')) {
      send(res, 200, {
        object: 'billing_subscription',
        has_payment_method: true,
        hard_limit_usd: HARD_LIMIT_USD,
      });
      return;
    }
    if (path.endsWith('/dashboard/billing/usage')) {
      send(res, 200, { object: 'list', total_usage: TOTAL_USAGE_CENTS });
      return;
    }
    send(res, 404, { error: { message: `Unknown path ${path}`, type: 'invalid_request_error' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    chats,
    holdChatsUntil: (count) =>
      new Promise<void>((released) => {
        hold = { count, waiting: [], released };
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
