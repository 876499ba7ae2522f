import { describe, expect, it } from 'vitest';
import { channelTypeById } from './channel-types';
import { BEDROCK_MODEL_IDS } from './channel-types-cloud';
import { BEDROCK_RERANK_MODELS, VERTEX_RERANK_MODELS } from './channel-types-rerank';
import { resolveModelRatio, UNKNOWN_MODEL_RATIO } from './model-ratios';

const type = (id: number) => {
  const found = channelTypeById(id);
  if (!found) throw new Error(`no channel type ${id}`);
  return found;
};

describe('AWS Bedrock (33) and Vertex AI (42)', () => {
  it('keep their credentials in config fields, required, the secret ones marked', () => {
    const fields = (id: number) =>
      type(id).configFields?.map((field) => [field.key, field.required === true, field.secret === true]);
    expect(fields(33)).toEqual([
      ['region', true, false],
      ['ak', true, true],
      ['sk', true, true],
    ]);
    expect(fields(42)).toEqual([
      ['region', true, false],
      ['vertex_ai_project_id', true, false],
      ['vertex_ai_adc', true, true],
    ]);
    expect(type(42).configFields?.find((field) => field.key === 'vertex_ai_adc')?.multiline).toBe(true);
    for (const id of [33, 42]) {
      expect(type(id)).toMatchObject({ keyInConfig: true, defaultBaseUrl: '' });
      for (const field of type(id).configFields ?? []) {
        expect(field.label.en.trim()).not.toBe('');
        expect(field.label.zh.trim()).not.toBe('');
      }
    }
    expect(type(33).apiStyle).toBe('aws');
    expect(type(42).apiStyle).toBe('vertex');
  });

  it("list one-api's models, Bedrock's with their foundation-model ids, every one priced", () => {
    expect(type(33).defaultModels).toEqual([...Object.keys(BEDROCK_MODEL_IDS), ...BEDROCK_RERANK_MODELS]);
    expect(BEDROCK_MODEL_IDS['claude-2.1']).toBe('anthropic.claude-v2:1');
    expect(BEDROCK_MODEL_IDS['llama3-70b-8192']).toBe('meta.llama3-70b-instruct-v1:0');
    expect(type(42).defaultModels).toHaveLength(17 + VERTEX_RERANK_MODELS.length);
    for (const id of [33, 42]) {
      for (const model of type(id).defaultModels) {
        expect(resolveModelRatio(model, id), model).not.toBe(UNKNOWN_MODEL_RATIO);
      }
    }
  });
});
