import { describe, expect, it } from 'vitest';
import { withTopLevelFields } from './native-body';

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
