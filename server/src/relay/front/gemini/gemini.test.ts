import { describe, expect, it } from 'vitest';
import { geminiNative } from '../../adaptors/gemini/native';
import { RelayError, upstreamBroke } from '../../errors';
import { toOpenAiMessages } from './contents';
import { toOpenAiSampling } from './generation-config';
import { parseModelAction } from './request';
import { jsonSchemaOf } from './schema';
import { GeminiStreamWriter } from './stream';
import { toOpenAiToolChoice, toOpenAiTools } from './tools';

describe('Gemini-native request translation', () => {
  it('splits the action off at the last colon, model names keep theirs', () => {
    expect(parseModelAction('gemini-2.0-flash:generateContent')).toEqual({
      model: 'gemini-2.0-flash',
      action: 'generateContent',
    });
    expect(parseModelAction('ollama/qwen:7b:countTokens')).toEqual({
      model: 'ollama/qwen:7b',
      action: 'countTokens',
    });
    expect(() => parseModelAction('gemini-pro')).toThrow(RelayError);
    expect(() => parseModelAction(':generateContent')).toThrow(RelayError);
  });

  it('pairs function responses without ids with the calls of the same name, in order', () => {
    const messages = toOpenAiMessages(
      [
        { role: 'user', parts: [{ text: 'Two cities' }] },
        {
          role: 'model',
          parts: [
            { text: 'thinking…', thought: true },
            { functionCall: { name: 'weather', args: { city: 'A' } } },
            { functionCall: { name: 'weather', args: { city: 'B' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'weather', response: { t: 1 } } },
            { functionResponse: { name: 'weather', response: { t: 2 } } },
            { text: 'And?' },
            { fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/a.jpg' } },
          ],
        },
      ],
      { parts: [{ text: 'Be brief.' }, { text: 'Be kind.' }] },
    );
    expect(messages).toEqual([
      { role: 'system', content: 'Be brief.\nBe kind.' },
      { role: 'user', content: 'Two cities' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_0_weather',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"A"}' },
          },
          {
            id: 'call_1_weather',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"B"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_0_weather', content: '{"t":1}' },
      { role: 'tool', tool_call_id: 'call_1_weather', content: '{"t":2}' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'And?' },
          { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
        ],
      },
    ]);
  });

  it('turns Gemini schemas into JSON Schema, nested ones included', () => {
    expect(
      jsonSchemaOf({
        type: 'ARRAY',
        items: {
          type: 'OBJECT',
          properties: { n: { type: 'INTEGER', nullable: true } },
          propertyOrdering: ['n'],
        },
        anyOf: [{ type: 'STRING' }],
      }),
    ).toEqual({
      type: 'array',
      items: { type: 'object', properties: { n: { type: ['integer', 'null'] } } },
      anyOf: [{ type: 'string' }],
    });
  });

  it('maps functionCallingConfig modes to tool_choice', () => {
    const tools = toOpenAiTools([{ functionDeclarations: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }]);
    expect(toOpenAiToolChoice({ functionCallingConfig: { mode: 'NONE' } }, tools).toolChoice).toBe('none');
    expect(toOpenAiToolChoice({ functionCallingConfig: { mode: 'AUTO' } }, tools).toolChoice).toBeUndefined();
    const any = toOpenAiToolChoice(
      { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['a', 'c'] } },
      tools,
    );
    expect(any.toolChoice).toBe('required');
    expect(any.tools?.map((tool) => (tool.function as { name: string }).name)).toEqual(['a', 'c']);
    expect(() =>
      toOpenAiToolChoice({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['z'] } }, tools),
    ).toThrow(RelayError);
    expect(() => toOpenAiTools([{ codeExecution: {} }])).toThrow(/codeExecution is not supported/);
  });

  it('maps thinking to reasoning_effort only when it says something a channel can honour', () => {
    expect(toOpenAiSampling({ thinkingConfig: { thinkingLevel: 'high' } })).toEqual({
      reasoning_effort: 'high',
    });
    expect(toOpenAiSampling({ thinkingConfig: { thinkingBudget: 512 } })).toEqual({
      reasoning_effort: 'low',
    });
    expect(toOpenAiSampling({ thinkingConfig: { thinkingBudget: -1, includeThoughts: true } })).toEqual({});
    expect(toOpenAiSampling({ responseMimeType: 'application/json' })).toEqual({
      response_format: { type: 'json_object' },
    });
    expect(() => toOpenAiSampling({ responseMimeType: 'text/x.enum' })).toThrow(RelayError);
  });
});

describe('Gemini-native stream writer', () => {
  const shape = { model: 'm', fallbackId: 'req-1', includeThoughts: false };

  it('closes a stream that ended without [DONE] with STOP and an empty text part', () => {
    const writer = new GeminiStreamWriter(shape);
    expect(writer.finish()).toEqual([
      {
        candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
        modelVersion: 'm',
        responseId: 'req-1',
      },
    ]);
    expect(writer.finish()).toEqual([]);
  });

  it('answers MAX_TOKENS for length, and an error event in Google shape, once', () => {
    const writer = new GeminiStreamWriter(shape);
    writer.chunk(
      JSON.stringify({ id: 'chatcmpl-9', choices: [{ delta: { content: 'x' }, finish_reason: 'length' }] }),
    );
    expect(writer.chunk('[DONE]')[0]).toMatchObject({
      candidates: [{ finishReason: 'MAX_TOKENS' }],
      responseId: '9',
    });
    const failing = new GeminiStreamWriter(shape);
    expect(
      failing.chunk(JSON.stringify({ error: { message: 'cut', code: 'insufficient_user_quota' } })),
    ).toEqual([{ error: { code: 429, message: 'cut', status: 'RESOURCE_EXHAUSTED' } }]);
    expect(failing.finish()).toEqual([]);
  });
});

describe('Gemini native usage reader', () => {
  const usage = (candidates: number) => ({
    promptTokenCount: 50,
    cachedContentTokenCount: 20,
    candidatesTokenCount: candidates,
    thoughtsTokenCount: 5,
  });

  it('keeps the last running total, reads text and function calls, is done at a finishReason', () => {
    const reader = geminiNative.usage.stream();
    reader.read(
      JSON.stringify({
        candidates: [{ content: { parts: [{ text: 'thinking', thought: true }, { text: 'Hi' }] } }],
        usageMetadata: usage(1),
      }),
      undefined,
    );
    expect(reader.done()).toBe(false);
    reader.read(
      JSON.stringify({
        candidates: [
          { content: { parts: [{ functionCall: { name: 'f', args: { a: 1 } } }] }, finishReason: 'STOP' },
        ],
        usageMetadata: usage(7),
      }),
      undefined,
    );
    expect(reader.done()).toBe(true);
    expect(reader.failed()).toBe(false);
    expect(reader.text()).toBe('thinkingHif{"a":1}');
    expect(reader.usage()).toEqual({
      prompt_tokens: 50,
      completion_tokens: 12,
      cached_tokens: 20,
      reasoning_tokens: 5,
    });
    expect(() => reader.read('{"object":"chat.completion.chunk"}', undefined)).toThrow(RelayError);
  });

  it('fails on an error event; an error or a blocked prompt in a whole answer', () => {
    const reader = geminiNative.usage.stream();
    reader.read('{"error":{"code":500,"message":"x","status":"INTERNAL"}}', undefined);
    expect(reader.failed()).toBe(true);
    expect(
      geminiNative.usage.answer(Buffer.from('{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}')),
    ).toMatchObject({ status: 429 });
    expect(geminiNative.usage.answer(Buffer.from('{"promptFeedback":{"blockReason":"SAFETY"}}'))).toEqual({
      usage: undefined,
      text: '',
    });
  });

  it('ends a broken stream with the error element a translated stream ends with', () => {
    expect(geminiNative.streamError(upstreamBroke(new Error('reset')), 'req-9')).toBe(
      `data: ${JSON.stringify({
        error: {
          code: 502,
          message: 'The upstream answer broke off (request id: req-9)',
          status: 'UNAVAILABLE',
        },
      })}\r\n\r\n`,
    );
  });
});
