import { describe, expect, it } from 'vitest';
import { isChatModel } from './model-kinds';

describe('isChatModel', () => {
  it.each([
    'gpt-3.5-turbo',
    'gpt-4o',
    'gpt-4o-mini-audio-preview',
    'o1-mini',
    'claude-3-5-sonnet-latest',
    'gemini-1.5-pro',
    'qwen2.5-72b-instruct',
    'ERNIE-4.0-8K',
    'glm-4v',
    'Spark-Max',
    'llama3:latest',
    'moonshot-v1-8k',
  ])('%s is a chat model', (model) => expect(isChatModel(model)).toBe(true));

  it.each([
    'text-embedding-3-small',
    'text-embedding-ada-002',
    'mistral-embed',
    'Embedding-V1',
    'embedding-2',
    'hunyuan-embedding',
    'Baichuan-Text-Embedding',
    'bge-large-zh',
    'tao-8k',
    'semantic_similarity_s1_v1',
    'text-moderation-latest',
    'omni-moderation-latest',
    'tts-1',
    'tts-1-hd-1106',
    'gpt-4o-mini-tts',
    'whisper-1',
    'whisper-large-v3-turbo',
    'gpt-4o-transcribe',
    'dall-e-3',
    'gpt-image-1',
    'ali-stable-diffusion-xl',
    'wanx-v1',
    'cogview-3-plus',
    'gpt-4o-realtime-preview',
    'text-davinci-003',
    'text-davinci-edit-001',
    'babbage-002',
    'gpt-3.5-turbo-instruct',
    '',
    '  ',
  ])('%j is not a chat model', (model) => expect(isChatModel(model)).toBe(false));
});
