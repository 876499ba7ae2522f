/** One call of a load run, as the client saw it. */
export interface LoadCall {
  key: string;
  target: string;
  stream: boolean;
  /** The client received the whole answer (a JSON body, or a stream through `data: [DONE]`). */
  completed: boolean;
  status: number;
  requestId: string | undefined;
  error?: string;
  startedAt: number;
  ms: number;
}

export interface LoadOptions {
  /** Base URLs to spread calls over; `targets()` is asked before every call (a killed one leaves it). */
  targets: () => string[];
  keys: string[];
  workers: number;
  durationMs: number;
  /** Ends the load before its duration: no call starts once it is aborted. */
  stop?: AbortSignal;
  body?: (stream: boolean) => Record<string, unknown>;
  /** The calls so far, filled as they end: a test can act once enough went through. */
  calls?: LoadCall[];
}

const chatBody = (stream: boolean) => ({
  model: 'gpt-3.5-turbo',
  messages: [{ role: 'user', content: 'hi' }],
  max_tokens: 50,
  stream,
});

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)] as T;

async function oneCall(target: string, key: string, stream: boolean, body: Record<string, unknown>) {
  const started = Date.now();
  const call: LoadCall = {
    key,
    target,
    stream,
    completed: false,
    status: 0,
    requestId: undefined,
    startedAt: started,
    ms: 0,
  };
  try {
    const response = await fetch(`${target}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    call.status = response.status;
    call.requestId = response.headers.get('x-oneapi-request-id') ?? undefined;
    const text = await response.text();
    call.completed =
      response.status === 200 &&
      (stream
        ? text.trimEnd().endsWith('data: [DONE]') && !text.includes('"error"')
        : Array.isArray((JSON.parse(text) as { choices?: unknown }).choices));
    if (!call.completed) call.error = text.slice(0, 300);
  } catch (error) {
    call.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
  call.ms = Date.now() - started;
  return call;
}

/** Closed-loop load: `workers` callers, each calling again as soon as its last call ended. */
export async function runLoad(options: LoadOptions): Promise<LoadCall[]> {
  const calls: LoadCall[] = options.calls ?? [];
  const deadline = Date.now() + options.durationMs;
  const body = options.body ?? chatBody;
  await Promise.all(
    Array.from({ length: options.workers }, async () => {
      while (Date.now() < deadline && !options.stop?.aborted) {
        const targets = options.targets();
        if (targets.length === 0) break;
        const stream = Math.random() < 0.5;
        calls.push(await oneCall(pick(targets), pick(options.keys), stream, body(stream)));
      }
    }),
  );
  return calls;
}
