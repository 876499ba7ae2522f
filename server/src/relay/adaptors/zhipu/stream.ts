import { openAiAdaptor } from '../openai';
import { type ChunkFields, JsonStreamTranslator } from '../openai-format';
import type { RelayCall, StreamTranslator, Usage } from '../types';
import { errorInBody, zhipuError } from './errors';
import { usageOf } from './response';
import type { ZhipuV3Event } from './wire';

const openAiShaped = openAiAdaptor();

/**
 * v4 streams are OpenAI chunks (usage in the last one, then `[DONE]`) and go through as they came;
 * an error event in the middle (`{error: {code, message}}`, e.g. unsafe content) is answered in
 * OpenAI's error shape and leaves the stream unfinished.
 */
export class ZhipuV4Stream implements StreamTranslator {
  readonly #inner: StreamTranslator;

  constructor(private readonly call: RelayCall) {
    this.#inner = openAiShaped.streamTranslator(call);
  }

  push(data: string, event?: string): string[] {
    if (data.includes('"error"')) {
      let error: ReturnType<typeof errorInBody>;
      try {
        error = errorInBody(JSON.parse(data));
      } catch {
        error = undefined;
      }
      if (error) return [JSON.stringify(error.body(this.call.requestId))];
    }
    return this.#inner.push(data, event);
  }

  usage(): Usage | undefined {
    return this.#inner.usage();
  }

  text(): string {
    return this.#inner.text();
  }

  done(): boolean {
    return this.#inner.done();
  }
}

/**
 * v3 `sse-invoke` events, as our transport re-frames them (`event: <name>`, data `{data, meta}`) →
 * OpenAI chunks: `add` carries text, `finish` ends with usage in its meta, `interrupted` ends for
 * unsafe content, `error` ends early with the message.
 */
export class ZhipuV3Stream extends JsonStreamTranslator<ZhipuV3Event> {
  #id: string;

  constructor(call: RelayCall) {
    super(call);
    this.#id = `chatcmpl-${call.requestId}`;
  }

  protected translate(parsed: ZhipuV3Event, event?: string): string[] {
    const text = typeof parsed.data === 'string' ? parsed.data : '';
    switch (event) {
      case 'add':
        return text ? this.#content(text) : [];
      case 'finish': {
        const meta = parsed.meta;
        this.#id = meta?.task_id || meta?.request_id || this.#id;
        this.reported = usageOf(meta?.usage) ?? this.reported;
        this.finished = true;
        return [...this.#content(text), this.#chunk({ finishReason: 'stop', usage: this.reported })];
      }
      case 'interrupted':
        this.finished = true;
        return [...this.#content(text), this.#chunk({ finishReason: 'content_filter' })];
      case 'error':
        // An error ends the stream early: what was delivered is billed by counting (not `finished`).
        return [
          JSON.stringify(zhipuError(undefined, text || 'Zhipu stream error').body(this.call.requestId)),
        ];
      default:
        return [];
    }
  }

  #chunk(fields: Omit<ChunkFields, 'role'>): string {
    return this.assistantChunk(this.#id, fields);
  }

  #content(text: string): string[] {
    if (!text) return [];
    this.generated += text;
    return [this.#chunk({ content: text })];
  }
}
