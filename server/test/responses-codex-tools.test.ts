import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicHandler, type FakeAnthropicOptions } from './fakes/anthropic';
import { type FakeGeminiOptions, geminiHandler } from './fakes/gemini';
import { HttpFake } from './fakes/http-fake';
import { startTestApp, type TestApp } from './harness';
import { expectedQuota, spentBy } from './providers/quota-check';
import { type Customer, createChannel, createCustomer } from './relay-setup';

const ANTHROPIC = 14;
const CLAUDE = 'claude-sonnet-4-20250514';
const ANTHROPIC_KEY = 'sk-ant-api03-codex-tools';
const GEMINI = 24;
const GEMINI_MODEL = 'gemini-2.5-flash';
const GEMINI_KEY = 'gemini-codex-tools-key';

const PATCH = '*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n';
const GRAMMAR =
  'start: begin_patch hunk+ end_patch\nbegin_patch: "*** Begin Patch" LF\nend_patch: "*** End Patch" LF?\n';

/** The tools Codex CLI 0.171.0 sends with a model it knows (read from its requests to a logging server). */
const CODEX_TOOLS = [
  {
    type: 'function',
    name: 'exec_command',
    description: 'Runs a command in a PTY, returning output or a session ID for ongoing interaction.',
    strict: false,
    parameters: {
      type: 'object',
      properties: { cmd: { type: 'string', description: 'Shell command to execute.' } },
      required: ['cmd'],
      additionalProperties: false,
    },
  },
  {
    type: 'custom',
    name: 'apply_patch',
    description:
      'The `apply_patch` tool can be used to edit files. This is a FREEFORM tool, so do not wrap the patch in JSON.',
    format: { type: 'grammar', syntax: 'lark', definition: GRAMMAR },
  },
  {
    type: 'tool_search',
    execution: 'client',
    description: '# Tool discovery\n\nSearches over deferred tool metadata with BM25.',
    parameters: {
      type: 'object',
      properties: {
        limit: { type: 'number', description: 'Maximum number of tools to return. Defaults to 8.' },
        query: { type: 'string', description: 'Search query for deferred tools.' },
      },
      required: ['query'],
      additionalProperties: false,
    },
  },
  { type: 'web_search', external_web_access: false, search_content_types: ['text', 'image'] },
] as unknown as OpenAI.Responses.Tool[];

/** What it adds for a model it has no metadata for: a namespace of agent tools. */
const AGENTS_NAMESPACE = {
  type: 'namespace',
  name: 'multi_agent_v1',
  description: 'Tools for working with sub-agents.',
  tools: [
    {
      type: 'function',
      name: 'spawn_agent',
      description: 'Spawns a sub-agent.',
      strict: false,
      parameters: {
        type: 'object',
        properties: { message: { type: 'string', description: 'Initial plain-text task.' } },
        required: ['message'],
        additionalProperties: false,
      },
    },
  ],
} as unknown as OpenAI.Responses.Tool;

/** Codex's first turn: developer instructions, then the user's prompt, as it sends them. */
const codexTurn = (input: unknown[] = []) =>
  ({
    tool_choice: 'auto',
    parallel_tool_calls: false,
    reasoning: { effort: 'medium' },
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: '01a220ae-6acd-7403-a09d-381f4b42b9f4',
    text: { verbosity: 'low' },
    input: [
      {
        type: 'message',
        role: 'developer',
        content: [{ type: 'input_text', text: 'You are Codex, a coding agent.' }],
      },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'create hello.txt' }] },
      ...input,
    ],
  }) as unknown as Omit<OpenAI.Responses.ResponseCreateParamsNonStreaming, 'stream'>;

describe('Codex CLI requests on translated channels: custom, namespace, tool_search and web_search tools', () => {
  let t: TestApp;
  let anthropic: HttpFake;
  let gemini: HttpFake;
  let customer: Customer;
  const answerClaude = (options: Omit<FakeAnthropicOptions, 'apiKey'>) =>
    anthropic.use(anthropicHandler({ apiKey: ANTHROPIC_KEY, ...options }));
  const answerGemini = (options: Omit<FakeGeminiOptions, 'apiKey'>) =>
    gemini.use(geminiHandler({ apiKey: GEMINI_KEY, ...options }));

  beforeAll(async () => {
    anthropic = await new HttpFake(anthropicHandler({ apiKey: ANTHROPIC_KEY, reply: 'hi' })).start();
    gemini = await new HttpFake(geminiHandler({ apiKey: GEMINI_KEY, reply: 'hi' })).start();
    t = await startTestApp();
    const root = await t.root();
    await createChannel(root, {
      type: ANTHROPIC,
      base_url: anthropic.url,
      key: ANTHROPIC_KEY,
      models: CLAUDE,
    });
    await createChannel(root, { type: GEMINI, base_url: gemini.url, key: GEMINI_KEY, models: GEMINI_MODEL });
    customer = await createCustomer(t, 'codextools', { quota: 100_000_000 });
  });
  afterAll(async () => {
    await t.close();
    await gemini.close();
    await anthropic.close();
  });

  it('Anthropic: the custom tool is a function of its text, the namespace flattened, web search left out; the call comes back as custom_tool_call, billed', async () => {
    answerClaude({
      toolUse: { id: 'toolu_patch', name: 'apply_patch', input: { input: PATCH } },
      usage: { input_tokens: 120, output_tokens: 30 },
    });
    let response: OpenAI.Responses.Response | undefined;
    const { quota, log } = await spentBy(t, customer, async () => {
      response = await customer.openai.responses.create({
        ...codexTurn(),
        model: CLAUDE,
        tools: [...CODEX_TOOLS, AGENTS_NAMESPACE],
      });
    });
    const sent = anthropic.last().json as { tools: Array<Record<string, unknown>>; system: string };
    expect(sent.tools.map((tool) => tool.name)).toEqual([
      'exec_command',
      'apply_patch',
      'tool_search',
      'multi_agent_v1__spawn_agent',
    ]);
    expect(sent.tools[1]).toEqual({
      name: 'apply_patch',
      description: expect.stringContaining(`grammar:\n${GRAMMAR.trim()}`),
      input_schema: {
        type: 'object',
        properties: { input: { type: 'string', description: expect.any(String) } },
        required: ['input'],
        additionalProperties: false,
      },
    });
    expect(sent.system).toBe('You are Codex, a coding agent.');
    expect(response?.output).toEqual([
      {
        id: expect.any(String),
        type: 'custom_tool_call',
        status: 'completed',
        call_id: 'toolu_patch',
        name: 'apply_patch',
        input: PATCH,
      },
    ]);
    const expected = expectedQuota(CLAUDE, ANTHROPIC, { prompt: 120, completion: 30 });
    expect(quota).toBe(expected);
    expect(log).toMatchObject({ prompt_tokens: 120, completion_tokens: 30, quota: expected });
  });

  it('Anthropic: the custom call and its custom_tool_call_output go back as tool_use and tool_result', async () => {
    answerClaude({ reply: 'Created hello.txt.' });
    const response = await customer.openai.responses.create({
      ...codexTurn([
        {
          type: 'custom_tool_call',
          id: 'ctc_1',
          status: 'completed',
          call_id: 'toolu_patch',
          name: 'apply_patch',
          input: PATCH,
        },
        {
          type: 'custom_tool_call_output',
          id: 'ctco_1',
          call_id: 'toolu_patch',
          output: 'Exit code: 0\nSuccess. Updated the following files:\nA hello.txt\n',
        },
      ]),
      model: CLAUDE,
      tools: CODEX_TOOLS,
    });
    expect(response.output_text).toBe('Created hello.txt.');
    expect(anthropic.last().json?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'create hello.txt' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_patch', name: 'apply_patch', input: { input: PATCH } }],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_patch',
            content: 'Exit code: 0\nSuccess. Updated the following files:\nA hello.txt\n',
          },
        ],
      },
    ]);
  });

  it('Anthropic, streamed: a namespaced call comes back as a function_call with its namespace, a custom call with its input events', async () => {
    answerClaude({
      toolUse: {
        id: 'toolu_agent',
        name: 'multi_agent_v1__spawn_agent',
        input: { message: 'Run the tests' },
      },
    });
    const stream = customer.openai.responses.stream({
      ...codexTurn(),
      model: CLAUDE,
      tools: [...CODEX_TOOLS, AGENTS_NAMESPACE],
    });
    const final = await stream.finalResponse();
    expect(anthropic.last().json).toMatchObject({ stream: true });
    expect(final.output).toEqual([
      expect.objectContaining({
        type: 'function_call',
        call_id: 'toolu_agent',
        name: 'spawn_agent',
        namespace: 'multi_agent_v1',
        arguments: '{"message":"Run the tests"}',
      }),
    ]);

    answerClaude({
      reply: 'Patching.',
      toolUse: { id: 'toolu_patch2', name: 'apply_patch', input: { input: PATCH } },
    });
    const events: Array<Record<string, unknown>> = [];
    const second = customer.openai.responses.stream({
      ...codexTurn(),
      model: CLAUDE,
      tools: CODEX_TOOLS,
    });
    second.on('event', (event) => events.push(event as unknown as Record<string, unknown>));
    const whole = await second.finalResponse();
    const types = events.map((event) => event.type);
    expect(types).not.toContain('response.function_call_arguments.delta');
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'response.custom_tool_call_input.done', input: PATCH }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'response.output_item.done',
        item: expect.objectContaining({
          type: 'custom_tool_call',
          call_id: 'toolu_patch2',
          name: 'apply_patch',
          input: PATCH,
        }),
      }),
    );
    expect(types.at(-1)).toBe('response.completed');
    expect(whole.output.map((item) => item.type)).toEqual(['message', 'custom_tool_call']);
  });

  it('Anthropic: a client tool search comes back as tool_search_call; the tools it loaded are offered on the next turn', async () => {
    answerClaude({ toolUse: { id: 'toolu_search', name: 'tool_search', input: { query: 'calendar' } } });
    const first = await customer.openai.responses.create({
      ...codexTurn(),
      model: CLAUDE,
      tools: CODEX_TOOLS,
    });
    expect(first.output).toEqual([
      {
        id: expect.any(String),
        type: 'tool_search_call',
        status: 'completed',
        call_id: 'toolu_search',
        execution: 'client',
        arguments: { query: 'calendar' },
      },
    ]);

    answerClaude({ reply: 'Found it.' });
    await customer.openai.responses.create({
      ...codexTurn([
        ...first.output,
        {
          type: 'tool_search_output',
          call_id: 'toolu_search',
          execution: 'client',
          status: 'completed',
          tools: [
            {
              type: 'namespace',
              name: 'mcp__calendar',
              description: 'Calendar server',
              tools: [
                { type: 'function', name: 'create_event', parameters: { type: 'object', properties: {} } },
              ],
            },
          ],
        },
      ]),
      model: CLAUDE,
      tools: CODEX_TOOLS,
    });
    const sent = anthropic.last().json as { tools: Array<{ name: string }>; messages: unknown[] };
    expect(sent.tools.map((tool) => tool.name)).toContain('mcp__calendar__create_event');
    expect(sent.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_search', name: 'tool_search', input: { query: 'calendar' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_search',
            content: 'Tools loaded: mcp__calendar__create_event',
          },
        ],
      },
    ]);
  });

  it("Anthropic: tools in an additional_tools input item (Codex's default model) are offered, the namespace's custom tool answered as custom_tool_call", async () => {
    answerClaude({
      toolUse: { id: 'toolu_exec', name: 'functions__exec', input: { input: 'console.log(1)' } },
    });
    const additional = {
      type: 'additional_tools',
      id: 'at_1',
      role: 'developer',
      tools: [
        {
          type: 'namespace',
          name: 'functions',
          description: '',
          tools: [
            {
              type: 'custom',
              name: 'exec',
              description: 'Run JavaScript code to orchestrate tool calls',
              format: { type: 'grammar', syntax: 'lark', definition: 'start: SOURCE\nSOURCE: /[\\s\\S]+/\n' },
            },
            {
              type: 'function',
              name: 'wait',
              strict: false,
              parameters: {
                type: 'object',
                properties: { cell_id: { type: 'string' } },
                required: ['cell_id'],
              },
            },
          ],
        },
      ],
    };
    const body = codexTurn();
    const response = await customer.openai.responses.create({
      ...body,
      model: CLAUDE,
      input: [additional, ...(body.input as unknown[])] as OpenAI.Responses.ResponseInput,
    });
    const sent = anthropic.last().json as { tools: Array<{ name: string }>; messages: unknown[] };
    expect(sent.tools.map((tool) => tool.name)).toEqual(['functions__exec', 'functions__wait']);
    expect(sent.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'create hello.txt' }] }]);
    expect(response.output).toEqual([
      expect.objectContaining({
        type: 'custom_tool_call',
        call_id: 'toolu_exec',
        name: 'exec',
        namespace: 'functions',
        input: 'console.log(1)',
      }),
    ]);
  });

  it('Gemini, streamed: the Codex tools as function declarations; the custom call back as custom_tool_call, its output as a functionResponse', async () => {
    answerGemini({ functionCall: { name: 'apply_patch', args: { input: PATCH } } });
    const stream = customer.openai.responses.stream({
      ...codexTurn(),
      model: GEMINI_MODEL,
      tools: [...CODEX_TOOLS, AGENTS_NAMESPACE],
    });
    const final = await stream.finalResponse();
    expect(gemini.last().url).toContain(':streamGenerateContent');
    const sentTools = gemini.last().json?.tools as Array<{ functionDeclarations: Array<{ name: string }> }>;
    const declarations = sentTools[0]?.functionDeclarations;
    expect(declarations?.map((declaration) => declaration.name)).toEqual([
      'exec_command',
      'apply_patch',
      'tool_search',
      'multi_agent_v1__spawn_agent',
    ]);
    const call = final.output[0] as OpenAI.Responses.ResponseCustomToolCall;
    expect(call).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', input: PATCH });

    answerGemini({ reply: 'Done.' });
    const next = await customer.openai.responses.create({
      ...codexTurn([call, { type: 'custom_tool_call_output', call_id: call.call_id, output: 'Success.' }]),
      model: GEMINI_MODEL,
      tools: CODEX_TOOLS,
    });
    expect(next.output_text).toBe('Done.');
    expect(gemini.last().json?.contents).toEqual([
      { role: 'user', parts: [{ text: 'create hello.txt' }] },
      { role: 'model', parts: [{ functionCall: { name: 'apply_patch', args: { input: PATCH } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'apply_patch', response: expect.anything() } }] },
    ]);
  });

  it.each([
    {
      name: 'a hosted tool no translated channel runs',
      body: { tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }] },
      code: 'unsupported_tool_type',
      param: 'tools[0].type',
    },
    {
      name: 'web search forced by tool_choice',
      body: { tools: [{ type: 'web_search' }], tool_choice: { type: 'web_search' } },
      code: 'unsupported_tool_choice',
      param: 'tool_choice',
    },
    {
      name: 'a namespace without tools',
      body: { tools: [{ type: 'namespace', name: 'ns' }] },
      code: 'invalid_request',
      param: 'tools[0].tools',
    },
    {
      name: 'a custom tool without a name',
      body: { tools: [{ type: 'namespace', name: 'ns', tools: [{ type: 'custom' }] }] },
      code: 'invalid_request',
      param: 'tools[0].tools[0].name',
    },
    {
      name: 'a namespace inside a namespace',
      body: {
        tools: [{ type: 'namespace', name: 'a', tools: [{ type: 'namespace', name: 'b', tools: [] }] }],
      },
      code: 'unsupported_tool_type',
      param: 'tools[0].tools[0].type',
    },
    {
      name: 'a custom call whose input is not text',
      body: { input: [{ type: 'custom_tool_call', call_id: 'c', name: 'apply_patch', input: { patch: 1 } }] },
      code: 'invalid_request',
      param: 'input[0].input',
    },
    {
      name: 'additional tools that are not a list',
      body: {
        input: [
          { type: 'additional_tools', tools: 'exec' },
          { role: 'user', content: 'x' },
        ],
      },
      code: 'invalid_request',
      param: 'input[0].tools',
    },
  ])('$name: 400 $code naming $param, nothing sent upstream', async (spec) => {
    const received = anthropic.requests.length;
    const response = await fetch(`${t.baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${customer.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: CLAUDE, input: 'x', ...spec.body }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: unknown }).error).toMatchObject({
      code: spec.code,
      param: spec.param,
    });
    expect(anthropic.requests.length).toBe(received);
  });
});
