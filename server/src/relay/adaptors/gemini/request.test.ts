import { describe, expect, it } from 'vitest';
import { toGeminiContents } from './contents';
import { defaultVersion } from './endpoint';
import { geminiError } from './errors';
import { toGeminiChatRequest } from './request';
import { geminiSchema } from './tools';

describe('Gemini request conversion', () => {
  it('serves gemini-1.5 and later from v1beta, the rest from v1', () => {
    expect(defaultVersion('gemini-1.5-pro')).toBe('v1beta');
    expect(defaultVersion('gemini-2.0-flash-exp')).toBe('v1beta');
    expect(defaultVersion('gemini-2.5-flash')).toBe('v1beta');
    expect(defaultVersion('gemini-pro')).toBe('v1');
    expect(defaultVersion('gemini-1.0-pro')).toBe('v1');
    expect(defaultVersion('text-embedding-004')).toBe('v1');
  });

  it('keeps property names that look like keywords and drops the fields Gemini has not', () => {
    expect(
      geminiSchema({
        type: 'object',
        additionalProperties: false,
        properties: {
          strict: { type: 'boolean' },
          // Codex marks some of its tools' arguments so.
          message: { type: 'string', description: 'Task', encrypted: true },
          items: { type: 'array', items: { type: 'string', $id: 'x' } },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        strict: { type: 'boolean' },
        message: { type: 'string', description: 'Task' },
        items: { type: 'array', items: { type: 'string' } },
      },
    });
  });

  it('a system prompt alone becomes the user turn', () => {
    expect(toGeminiContents([{ role: 'system', content: 'Say hi' }], 'gemini-1.5-flash')).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Say hi' }] }],
    });
  });

  it('asks for JSON with the schema for response_format json_schema', () => {
    const request = toGeminiChatRequest(
      {
        messages: [{ role: 'user', content: 'x' }],
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'r', schema: { type: 'object', properties: { a: { type: 'string' } } } },
        },
      },
      'gemini-1.5-flash',
    );
    expect(request.generationConfig).toEqual({
      responseMimeType: 'application/json',
      responseSchema: { type: 'object', properties: { a: { type: 'string' } } },
    });
  });

  it('an expired key is a dead channel (401), quota exhaustion a rate limit (429)', () => {
    const expired = geminiError(
      { code: 400, status: 'INVALID_ARGUMENT', message: 'API key expired. Please renew the API key.' },
      400,
    );
    expect(expired).toMatchObject({ status: 401, type: 'authentication_error', origin: 'upstream' });
    expect(geminiError({ code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Quota' }, 429)).toMatchObject({
      status: 429,
      type: 'rate_limit_error',
    });
  });
});
