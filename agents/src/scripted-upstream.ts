import { randomBytes } from 'node:crypto';
import { anthropicHandler } from '../../server/test/fakes/anthropic';
import { geminiHandler } from '../../server/test/fakes/gemini';
import { type FakeHandler, HttpFake, type RecordedRequest } from '../../server/test/fakes/http-fake';
import { openAiHandler } from '../../server/test/fakes/openai';
import { responsesHandler } from '../../server/test/fakes/openai-responses';

/**
 * The format of an upstream: OpenAI's (Responses, as Codex's calls pass through, and chat, as the
 * others' are translated), Anthropic's Messages or Gemini's generateContent.
 */
export type UpstreamFormat = 'openai' | 'anthropic' | 'gemini';

/** The channel type that reaches each upstream. */
export const CHANNEL_TYPE: Record<UpstreamFormat, number> = { openai: 1, anthropic: 14, gemini: 24 };

/** The model each fake says it is, as an operator maps the agents' models onto it. */
export const UPSTREAM_MODEL: Record<UpstreamFormat, string> = {
  openai: 'gpt-5-codex',
  anthropic: 'claude-sonnet-4-5',
  gemini: 'gemini-2.5-pro',
};

export const UPSTREAM_KEY = 'upstream-secret-key';

/** The tokens one answer reports, in the fake's own format's terms. */
export interface AnswerUsage {
  prompt: number;
  completion: number;
}

/** One generation the fake answered: what it was asked and what it said. */
export interface Turn {
  request: RecordedRequest;
  answer: 'shell-call' | 'final' | 'aside';
  usage: AnswerUsage;
}

/**
 * The agent's own shell tool, by the name each CLI gives it in its requests (Claude Code `Bash`, Codex
 * `exec_command`, Gemini CLI `run_shell_command`), and the arguments that run `command` in its schema.
 */
const SHELL_TOOLS: Record<string, (command: string) => Record<string, unknown>> = {
  Bash: (command) => ({ command, description: 'Print the marker' }),
  exec_command: (command) => ({ cmd: command }),
  run_shell_command: (command) => ({ command, description: 'Print the marker' }),
};

/** The names of the tools a request offers, whatever its format. */
function toolNames(format: UpstreamFormat, body: Record<string, unknown>): string[] {
  const tools = Array.isArray(body.tools) ? (body.tools as Array<Record<string, unknown>>) : [];
  if (format === 'gemini')
    return tools.flatMap((tool) =>
      Array.isArray(tool.functionDeclarations)
        ? (tool.functionDeclarations as Array<{ name?: unknown }>).map((declaration) =>
            String(declaration.name),
          )
        : [],
    );
  return tools.map((tool) => String(tool.name ?? (tool.function as { name?: unknown } | undefined)?.name));
}

const isGeneration = (format: UpstreamFormat, request: RecordedRequest): boolean =>
  format === 'anthropic'
    ? request.url === '/v1/messages'
    : format === 'gemini'
      ? /:(stream)?[gG]enerateContent/.test(request.url)
      : /\/v1\/(responses|chat\/completions)$/.test(request.url);

/**
 * A provider of one format that scripts an agent's task: a request offering the agent's shell tool
 * is answered with a call running `printf` of the marker; once a request carries the command's
 * output, the answer is the final text `DONE <nonce>`. Any other generation (a title, a summary) is
 * answered with a short aside. Every answer reports its own usage, recorded in `turns`.
 */
export class ScriptedUpstream {
  readonly nonce = randomBytes(6).toString('hex');
  /** The command the fake asks to run: its text does not contain its output. */
  readonly command = `printf '%s-%s\\n' agent-ok ${this.nonce}`;
  readonly marker = `agent-ok-${this.nonce}`;
  readonly finalText = `DONE ${this.nonce}`;
  readonly turns: Turn[] = [];
  readonly fake: HttpFake;

  constructor(readonly format: UpstreamFormat) {
    this.fake = new HttpFake((request, res) => this.#answer(request)(request, res));
  }

  async start(): Promise<this> {
    await this.fake.start();
    return this;
  }

  get url(): string {
    return this.fake.url;
  }

  /** The shell tool calls the fake made whose output came back to it. */
  get roundTrips(): number {
    return this.turns.filter((turn) => turn.answer === 'final').length;
  }

  #answer(request: RecordedRequest): FakeHandler {
    const format = this.format;
    const body = request.json ?? {};
    const chat = request.url.endsWith('/chat/completions');
    if (!isGeneration(format, request)) return this.#handler(chat, {});
    const shell = toolNames(format, body).find((name) => name in SHELL_TOOLS);
    const index = this.turns.length;
    const usage = { prompt: 1000 + 17 * index, completion: 40 + 3 * index };
    if (request.body.includes(this.marker)) {
      this.turns.push({ request, answer: 'final', usage });
      return this.#handler(chat, { reply: this.finalText, usage });
    }
    if (shell) {
      this.turns.push({ request, answer: 'shell-call', usage });
      const args = SHELL_TOOLS[shell]!(this.command);
      return this.#handler(chat, { call: { name: shell, args }, usage });
    }
    this.turns.push({ request, answer: 'aside', usage });
    return this.#handler(chat, { reply: 'Noted.', usage });
  }

  #handler(
    chat: boolean,
    answer: {
      reply?: string;
      call?: { name: string; args: Record<string, unknown> };
      usage?: AnswerUsage;
    },
  ): FakeHandler {
    const usage = answer.usage ?? { prompt: 0, completion: 0 };
    const callId = `call_${this.nonce}`;
    switch (this.format) {
      case 'anthropic':
        return anthropicHandler({
          apiKey: UPSTREAM_KEY,
          reply: answer.reply,
          toolUse: answer.call && {
            id: `toolu_${this.nonce}`,
            name: answer.call.name,
            input: answer.call.args,
          },
          usage: { input_tokens: usage.prompt, output_tokens: usage.completion },
        });
      case 'gemini':
        return geminiHandler({
          apiKey: UPSTREAM_KEY,
          reply: answer.reply,
          functionCall: answer.call,
          usage: { promptTokenCount: usage.prompt, candidatesTokenCount: usage.completion },
        });
      case 'openai':
        if (chat)
          return openAiHandler({
            reply: answer.reply ?? '',
            toolCall: answer.call && {
              id: callId,
              name: answer.call.name,
              arguments: JSON.stringify(answer.call.args),
            },
            usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion },
          });
        return responsesHandler({
          reply: answer.reply,
          functionCall: answer.call && {
            callId,
            name: answer.call.name,
            arguments: JSON.stringify(answer.call.args),
          },
          usage: { input: usage.prompt, output: usage.completion },
        });
    }
  }
}
