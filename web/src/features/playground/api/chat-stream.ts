import { CONSOLE_CALL_HEADER, CONSOLE_CALL_VALUE } from '@switchyard/contract/console-call';
import type { Envelope } from '@switchyard/contract/envelope';
import { i18n } from '../../../i18n/i18n';
import { buildUrl, refusalText } from '../../../lib/api-client';

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface PlaygroundAsk {
  /** Absent: the temporary key. */
  token_id?: number;
  model: string;
  messages: ChatTurn[];
  temperature?: number;
  max_tokens?: number;
}

/** What a streamed answer came to: its request id (for its log line), and an error if it failed. */
export interface StreamEnd {
  requestId: string | null;
  error?: string;
}

/** The words of a refusal: the console's envelope, or the relay's OpenAI error shape. */
async function failureText(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const parsed = JSON.parse(text) as Partial<Envelope> & { error?: { message?: string } };
    if (parsed.error?.message) return parsed.error.message;
    if ('success' in parsed) return await refusalText(parsed as Envelope);
  } catch {
    // not JSON: the status says it
  }
  return `${response.status} ${response.statusText}`.trim();
}

/** The text pieces and error of one SSE event's data (OpenAI's chat.completion.chunk). */
function readEvent(data: string): { text: string; error?: string } {
  if (data === '[DONE]') return { text: '' };
  try {
    const event = JSON.parse(data) as {
      choices?: Array<{ delta?: { content?: string | null } }>;
      error?: { message?: string };
    };
    if (event.error) return { text: '', error: event.error.message ?? 'error' };
    return { text: event.choices?.map((choice) => choice.delta?.content ?? '').join('') ?? '' };
  } catch {
    return { text: '' };
  }
}

/**
 * POST /api/playground/chat/completions: the server relays the chat with the chosen key and streams
 * the answer back; `onText` gets each piece as it arrives. Aborting `signal` stops the call (billed
 * for what was produced, as any client's disconnect).
 */
export async function streamChat(
  ask: PlaygroundAsk,
  signal: AbortSignal,
  onText: (piece: string) => void,
): Promise<StreamEnd> {
  let response: Response;
  try {
    response = await fetch(buildUrl('/api/playground/chat/completions'), {
      method: 'POST',
      credentials: 'include',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'text/event-stream',
        'Accept-Language': i18n.language,
        [CONSOLE_CALL_HEADER]: CONSOLE_CALL_VALUE,
      },
      body: JSON.stringify(ask),
      signal,
    });
  } catch (error) {
    return { requestId: null, error: signal.aborted ? undefined : String(error) };
  }
  const requestId = response.headers.get('x-oneapi-request-id');
  if (!response.ok || !(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    return { requestId, error: await failureText(response) };
  }
  const reader = response.body?.getReader();
  if (!reader) return { requestId, error: 'no body' };
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      const events = buffer.split(/\r?\n\r?\n/);
      buffer = events.pop() ?? '';
      for (const event of events) {
        for (const line of event.split(/\r?\n/)) {
          if (!line.startsWith('data:')) continue;
          const { text, error } = readEvent(line.slice(5).trim());
          if (error) return { requestId, error };
          if (text) onText(text);
        }
      }
    }
  } catch (error) {
    if (!signal.aborted) return { requestId, error: String(error) };
  }
  return { requestId };
}
