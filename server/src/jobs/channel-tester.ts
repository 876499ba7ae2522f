import { isChatModel } from '@switchyard/contract/model-kinds';
import { type ErrorDetail, renderError } from '@switchyard/contract/render-error';
import { ChannelStatus } from '@switchyard/contract/roles';
import { splitList } from '@switchyard/contract/tokens';
import type { ChannelRow } from '../db/schema';
import type { ChannelService } from '../domain/channels';
import { DomainError } from '../domain/errors';
import type { LogService } from '../domain/logs';
import type { OptionsStore } from '../domain/options';
import { failureDetail, type RelayError } from '../relay/errors';
import { newRequestId } from '../relay/front/request-id';
import { asObject } from '../relay/json-value';
import { buildRelayCall } from '../relay/pipeline/call';
import { type ChannelHealth, meansDeadChannel } from '../relay/pipeline/channel-health';
import { BufferSink } from '../relay/pipeline/client-sink';
import type { Relay } from '../relay/pipeline/relay';
import { readRelayRequest } from '../relay/pipeline/relay-request';

export const TEST_PROMPT = 'hi';
const PREFERRED_TEST_MODEL = 'gpt-3.5-turbo';

export interface ChannelTestResult {
  success: boolean;
  /** The reply, or why the test failed (in English; `failure` says it in any language). */
  message: string;
  failure?: ErrorDetail;
  /** Seconds. */
  time: number;
  modelName: string;
  error?: RelayError;
  /** True when nothing was sent: the channel has no chat model to test with. */
  untested?: boolean;
}

/**
 * The requested model when the channel serves it and it is a chat model; else gpt-3.5-turbo when the
 * channel really serves it; else the channel's first chat model. Undefined when it has no chat model:
 * never a model it lacks, never an embedding, speech or image model asked a chat question.
 */
export function testModelOf(channel: Pick<ChannelRow, 'models'>, requested?: string): string | undefined {
  const chatModels = splitList(channel.models).filter(isChatModel);
  if (requested && chatModels.includes(requested)) return requested;
  return chatModels.includes(PREFERRED_TEST_MODEL) ? PREFERRED_TEST_MODEL : chatModels[0];
}

/**
 * Should a test-all run switch this enabled channel off? Only for what the relay itself would disable
 * it for (a dead key or account, `meansDeadChannel`), or for an answer slower than the monitor
 * setting's limit. Rate limits, 5xx, 404, timeouts and network trouble are transient: the channel stays.
 */
export function testDisableReason(result: ChannelTestResult, limitMs: number): string | undefined {
  if (result.success) {
    return limitMs > 0 && result.time * 1000 > limitMs
      ? `response time ${result.time.toFixed(2)} s is over the limit of ${limitMs / 1000} s`
      : undefined;
  }
  return result.error && meansDeadChannel(result.error) ? result.message : undefined;
}

/** Model names compared loosely: `gpt-35-turbo` (Azure) is `gpt-3.5-turbo`, `llama3:latest` is `llama3`. */
const looseName = (model: string) => model.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The first two words of a model's name, its family (`gpt 4`, `claude 3`), without a `vendor/` prefix. */
const familyOf = (model: string) =>
  (model.toLowerCase().split('/').pop() ?? '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .slice(0, 2)
    .join(' ');

/**
 * Is `answered` the model asked for? Its name, a dated or tagged variant of it (`gpt-4o` answered as
 * `gpt-4o-2024-08-06`), or a model of its family that an alias points to (`gpt-4-turbo-preview`
 * answered as `gpt-4-0125-preview`). A channel's model mapping may send another name upstream: either
 * counts. one-api does not compare at all; this only catches an answer from another model altogether.
 */
function isModelAsked(answered: string, asked: string[]): boolean {
  if (answered === '') return true;
  return asked.some(
    (model) => looseName(answered).startsWith(looseName(model)) || familyOf(answered) === familyOf(model),
  );
}

/**
 * The reply text of a well-formed chat completion for one of the models asked, or why the answer is
 * not one: a test passes on a real answer, not on any 200 (an image, an HTML page, empty choices).
 */
function readTestReply(body: string, asked: string[]): { reply: string } | { problem: ErrorDetail } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { problem: { code: 'channel_test_not_json' } };
  }
  const answer = asObject(parsed);
  const choice = Array.isArray(answer?.choices) ? asObject(answer.choices[0]) : undefined;
  const message = asObject(choice?.message);
  if (!message) {
    return { problem: { code: 'channel_test_no_message' } };
  }
  const content = message.content;
  if (content !== null && content !== undefined && typeof content !== 'string') {
    return { problem: { code: 'channel_test_content_not_text' } };
  }
  const model = typeof answer?.model === 'string' ? answer.model : '';
  if (!isModelAsked(model, asked)) {
    return { problem: { code: 'channel_test_wrong_model', params: { model, asked: asked[0] ?? '' } } };
  }
  return { reply: content ?? '' };
}

export interface ChannelTesterDeps {
  logs: LogService;
  relay: Relay;
  channels: ChannelService;
  health: ChannelHealth;
  options: OptionsStore;
  pauseMs: number;
}

/** Channel tests: a short real chat call through the relay path, timed and logged. */
export class ChannelTester {
  #running = false;

  constructor(private readonly deps: ChannelTesterDeps) {}

  get running(): boolean {
    return this.#running;
  }

  async test(channel: ChannelRow, requestedModel?: string): Promise<ChannelTestResult> {
    const model = testModelOf(channel, requestedModel);
    if (model === undefined) {
      const failure: ErrorDetail = { code: 'channel_test_no_chat_model' };
      return {
        success: false,
        message: renderError(failure.code),
        failure,
        time: 0,
        modelName: '',
        untested: true,
      };
    }
    const body = Buffer.from(
      JSON.stringify({ model, messages: [{ role: 'user', content: TEST_PROMPT }], max_tokens: 16 }),
    );
    const request = await readRelayRequest('chat', body, 'application/json');
    const call = buildRelayCall(
      { requestId: newRequestId(), path: '/v1/chat/completions', query: '' },
      request,
      channel,
    );
    const sink = new BufferSink();
    const started = performance.now();
    const result = await this.deps.relay.attempt(call, sink);
    const elapsedMs = Math.round(performance.now() - started);
    // Administrators see what went wrong in full, the key taken out (see `attempt`).
    const checked = result.ok
      ? readTestReply(sink.text(), [model, call.upstreamModel])
      : { problem: failureDetail(result.error) };
    const success = 'reply' in checked;
    const failure = 'problem' in checked ? checked.problem : undefined;
    const message =
      'reply' in checked ? checked.reply : renderError(checked.problem.code, checked.problem.params);
    await this.deps.channels.recordTest(channel.id, elapsedMs, failure);
    await this.deps.logs.recordChannelTest({ channel, model, elapsedMs, success, message });
    return {
      success,
      message,
      time: elapsedMs / 1000,
      modelName: model,
      ...(failure ? { failure } : {}),
      ...(result.ok ? {} : { error: result.error }),
    };
  }

  /** Tests channels one at a time in the background, switching health on the results. */
  startAll(scope: 'all' | 'disabled', onError: (error: unknown) => void): void {
    if (this.#running) throw new DomainError('channel_test_running');
    this.runAll(scope).catch(onError);
  }

  /**
   * One run over the channels, switching health on the results (the periodic test awaits it);
   * false when a run was already going, which is then left to finish on its own.
   */
  async runAll(scope: 'all' | 'disabled', stop?: AbortSignal): Promise<boolean> {
    if (this.#running) return false;
    this.#running = true;
    try {
      await this.#runAll(scope, stop);
      return true;
    } finally {
      this.#running = false;
    }
  }

  async #runAll(scope: 'all' | 'disabled', stop?: AbortSignal): Promise<void> {
    const { channels, health, options } = this.deps;
    for (const channel of await channels.allRows()) {
      if (stop?.aborted) return;
      if (scope === 'disabled' && channel.status === ChannelStatus.enabled) continue;
      const result = await this.test(channel);
      const limitMs = options.number('ChannelDisableThreshold') * 1000;
      const disableReason = testDisableReason(result, limitMs);
      if (channel.status === ChannelStatus.enabled) {
        if (disableReason !== undefined && options.bool('AutomaticDisableChannelEnabled')) {
          await health.disable(channel, disableReason);
        }
      } else if (result.success && disableReason === undefined) {
        await health.passed(channel);
      }
      if (this.deps.pauseMs > 0 && !result.untested)
        await new Promise((resolve) => setTimeout(resolve, this.deps.pauseMs));
    }
  }
}
