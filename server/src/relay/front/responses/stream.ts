import { brokenStreamEvents, responseShell, responsesEvent } from '../../adaptors/openai/responses-wire';
import { asObject, type Json } from '../../json-value';
import {
  finalStatus,
  itemIds,
  messageItem,
  outputText,
  type ResponseContext,
  reasoningItem,
  reasoningTextOf,
  responsesUsage,
} from './response';
import { toolCallItem } from './tools';

type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

/** One output item as it builds up; its index in the list is its `output_index`. */
interface OutputItem {
  kind: 'message' | 'reasoning' | 'function_call';
  id: string;
  status: ItemStatus;
  /** The text so far, or the function call's arguments. */
  text: string;
  callId?: string;
  name?: string;
}

/**
 * Turns OpenAI chat chunks into the Responses API's typed stream events, numbered in order:
 * response.created … output items (reasoning text, message text, function calls) … and the
 * terminal response.completed / response.incomplete, or `error` and response.failed.
 */
export class ResponsesStreamWriter {
  #sequence = 0;
  #started = false;
  #finished = false;
  readonly #items: OutputItem[] = [];
  #message: OutputItem | undefined;
  #reasoning: OutputItem | undefined;
  /** Open function calls by the chat chunk's tool call index. */
  readonly #calls = new Map<number, OutputItem>();
  #finishReason: unknown;
  #usage: unknown;

  constructor(private readonly context: ResponseContext) {}

  /** One OpenAI `data:` payload in, Responses events out. */
  chunk(payload: string): string {
    if (payload === '[DONE]') return this.finish();
    let chunk: Json | undefined;
    try {
      chunk = asObject(JSON.parse(payload));
    } catch {
      return '';
    }
    if (!chunk || this.#finished) return '';
    const error = asObject(chunk.error);
    if (error) return this.#fail(error);
    let out = this.#start();
    if (asObject(chunk.usage)) this.#usage = chunk.usage;
    const choice = asObject(Array.isArray(chunk.choices) ? chunk.choices[0] : undefined);
    const delta = asObject(choice?.delta);
    const reasoning = reasoningTextOf(delta);
    if (reasoning) out += this.#appendText('reasoning', reasoning);
    if (typeof delta?.content === 'string' && delta.content)
      out += this.#appendText('message', delta.content);
    for (const entry of Array.isArray(delta?.tool_calls) ? delta.tool_calls : []) {
      const call = asObject(entry);
      if (call) out += this.#toolCall(call);
    }
    if (choice?.finish_reason) this.#finishReason = choice.finish_reason;
    return out;
  }

  /** Closes every item and the response (also when the upstream ended without [DONE]). */
  finish(): string {
    if (this.#finished) return '';
    this.#finished = true;
    const { status, incomplete_details } = finalStatus(this.#finishReason);
    const itemStatus = status === 'completed' ? 'completed' : 'incomplete';
    let out = this.#start();
    for (const item of this.#items) out += this.#close(item, itemStatus);
    const response = {
      ...responseShell(this.context, status),
      incomplete_details,
      output: this.#items.map((item) => this.#item(item)),
      usage: responsesUsage(this.#usage),
    };
    return (
      out + this.#event(status === 'completed' ? 'response.completed' : 'response.incomplete', { response })
    );
  }

  /** The stream broke (the upstream, a silence, the quota): an `error` event, then response.failed. */
  #fail(error: Json): string {
    this.#finished = true;
    const response = {
      ...responseShell(this.context, 'failed'),
      output: this.#items.map((item) => this.#item(item, 'incomplete')),
      usage: responsesUsage(this.#usage),
    };
    const out = this.#start() + brokenStreamEvents(error, response, this.#sequence);
    this.#sequence += 2;
    return out;
  }

  #event(type: string, data: Json): string {
    return responsesEvent(type, this.#sequence++, data);
  }

  #start(): string {
    if (this.#started) return '';
    this.#started = true;
    const response = responseShell(this.context, 'in_progress');
    return this.#event('response.created', { response }) + this.#event('response.in_progress', { response });
  }

  /** The item as the API shows it; `unfinished` stands for the status of an item still open. */
  #item(item: OutputItem, unfinished: ItemStatus = item.status): Json {
    const itemStatus = item.status === 'in_progress' ? unfinished : item.status;
    if (item.kind === 'message') return messageItem(item.id, itemStatus, [outputText(item.text)]);
    if (item.kind === 'reasoning') return reasoningItem(item.id, itemStatus, item.text);
    return toolCallItem(this.context.tools, item.id, itemStatus, {
      callId: item.callId ?? '',
      name: item.name ?? '',
      arguments: item.text,
    });
  }

  #open(
    kind: OutputItem['kind'],
    id: string,
    extra: Partial<OutputItem> = {},
  ): { item: OutputItem; out: string } {
    const item: OutputItem = { kind, id, status: 'in_progress', text: '', ...extra };
    const output_index = this.#items.push(item) - 1;
    let out = this.#event('response.output_item.added', {
      output_index,
      item: { ...this.#item(item), ...(kind === 'function_call' ? {} : { content: [] }) },
    });
    if (kind !== 'function_call') {
      out += this.#event('response.content_part.added', {
        item_id: id,
        output_index,
        content_index: 0,
        part: kind === 'message' ? outputText('') : { type: 'reasoning_text', text: '' },
      });
    }
    return { item, out };
  }

  /** Text for the message or the reasoning item: the other kind's open item closes first. */
  #appendText(kind: 'message' | 'reasoning', text: string): string {
    const ids = itemIds(this.context.requestId);
    let out = kind === 'message' ? this.#close(this.#reasoning) : this.#close(this.#message);
    let item = kind === 'message' ? this.#message : this.#reasoning;
    if (item?.status !== 'in_progress') {
      const base = kind === 'message' ? ids.message : ids.reasoning;
      // A second item of the same kind (text after a tool call) gets its own id.
      const id = item ? `${base}_${this.#items.length}` : base;
      const opened = this.#open(kind, id);
      out += opened.out;
      item = opened.item;
      if (kind === 'message') this.#message = item;
      else this.#reasoning = item;
    }
    item.text += text;
    const type = kind === 'message' ? 'response.output_text.delta' : 'response.reasoning_text.delta';
    const extra = kind === 'message' ? { logprobs: [] } : {};
    return (
      out +
      this.#event(type, {
        item_id: item.id,
        output_index: this.#items.indexOf(item),
        content_index: 0,
        delta: text,
        ...extra,
      })
    );
  }

  #toolCall(call: Json): string {
    const index = typeof call.index === 'number' ? call.index : 0;
    const fn = asObject(call.function);
    let out = '';
    let item = this.#calls.get(index);
    if (!item) {
      out += this.#close(this.#reasoning) + this.#close(this.#message);
      const callId =
        typeof call.id === 'string' && call.id ? call.id : `call_${this.context.requestId}_${index}`;
      const opened = this.#open('function_call', itemIds(this.context.requestId).functionCall(index), {
        callId,
        name: typeof fn?.name === 'string' ? fn.name : '',
      });
      out += opened.out;
      item = opened.item;
      this.#calls.set(index, item);
    }
    if (typeof fn?.arguments === 'string' && fn.arguments) {
      item.text += fn.arguments;
      // A custom tool's text is one JSON argument until the call is whole: it is sent when it closes.
      if (this.#callKind(item) !== 'function') return out;
      out += this.#event('response.function_call_arguments.delta', {
        item_id: item.id,
        output_index: this.#items.indexOf(item),
        delta: fn.arguments,
      });
    }
    return out;
  }

  /** What a call item calls: a function, a custom tool or the client's tool search (none for text items). */
  #callKind(item: OutputItem): string | undefined {
    if (item.kind !== 'function_call') return undefined;
    return this.context.tools.get(item.name ?? '')?.kind ?? 'function';
  }

  /** The closing events of an open item: its text or arguments whole, then the item done. */
  #close(item: OutputItem | undefined, status: ItemStatus = 'completed'): string {
    if (item?.status !== 'in_progress') return '';
    const output_index = this.#items.indexOf(item);
    const where = { item_id: item.id, output_index };
    let out = '';
    const callKind = this.#callKind(item);
    if (callKind === 'custom') {
      const input = String(this.#item(item).input);
      out += this.#event('response.custom_tool_call_input.delta', { ...where, delta: input });
      out += this.#event('response.custom_tool_call_input.done', { ...where, input });
    } else if (callKind === 'function') {
      const call = this.#item(item);
      out += this.#event('response.function_call_arguments.done', {
        ...where,
        name: call.name,
        arguments: item.text,
      });
    } else if (item.kind !== 'function_call') {
      const message = item.kind === 'message';
      out += this.#event(message ? 'response.output_text.done' : 'response.reasoning_text.done', {
        ...where,
        content_index: 0,
        text: item.text,
        ...(message ? { logprobs: [] } : {}),
      });
      out += this.#event('response.content_part.done', {
        ...where,
        content_index: 0,
        part: message ? outputText(item.text) : { type: 'reasoning_text', text: item.text },
      });
    }
    item.status = status;
    return out + this.#event('response.output_item.done', { output_index, item: this.#item(item) });
  }
}
