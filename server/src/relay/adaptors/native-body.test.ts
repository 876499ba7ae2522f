import { describe, expect, it } from 'vitest';
import { withFieldAt, withTopLevelFields } from './native-body';

const edit = (text: string, fields: Record<string, unknown>) =>
  withTopLevelFields(Buffer.from(text), fields).toString();

describe('withTopLevelFields', () => {
  it('replaces top-level values and keeps every other byte', () => {
    const body =
      '{ "model" : "a",\n  "messages":[{"role":"user","content":"{\\"model\\": \\"a\\"}"}],\t"max_tokens": 1024 }';
    expect(edit(body, { model: 'b', max_tokens: 10 })).toBe(
      '{ "model" : "b",\n  "messages":[{"role":"user","content":"{\\"model\\": \\"a\\"}"}],\t"max_tokens": 10 }',
    );
  });

  it('leaves nested fields of the same name alone', () => {
    const body = '{"metadata":{"model":"x"},"tools":[{"model":"y"}],"model":"claude-😀"}';
    expect(edit(body, { model: 'z' })).toBe('{"metadata":{"model":"x"},"tools":[{"model":"y"}],"model":"z"}');
  });

  it('adds a missing field before the closing brace, keeping every other byte', () => {
    expect(edit('{"messages": [] }', { model: 'm', store: false })).toBe(
      '{"messages": [] ,"model":"m","store":false}',
    );
    expect(edit('{ }', { store: false })).toBe('{ "store":false}');
    expect(edit('{"model":"a"}', { model: 'b', store: false })).toBe('{"model":"b","store":false}');
  });
});

describe('withFieldAt', () => {
  const edit = (text: string, value: unknown) =>
    withFieldAt(Buffer.from(text), ['generationConfig', 'maxOutputTokens'], value).toString();

  it('replaces a nested value and keeps every other byte', () => {
    const body =
      '{"maxOutputTokens":1,"generationConfig": { "temperature":0.5, "maxOutputTokens" : 8192 },"x":[]}';
    expect(edit(body, 100)).toBe(
      '{"maxOutputTokens":1,"generationConfig": { "temperature":0.5, "maxOutputTokens" : 100 },"x":[]}',
    );
  });

  it('adds the field, and its object, when they are missing', () => {
    expect(JSON.parse(edit('{"contents":[]}', 7))).toEqual({
      contents: [],
      generationConfig: { maxOutputTokens: 7 },
    });
    expect(JSON.parse(edit('{"generationConfig":{"topK":3}}', 7))).toEqual({
      generationConfig: { topK: 3, maxOutputTokens: 7 },
    });
  });
});
