import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../api/openapi-document';
import { matchesFilter, operationsByTag, resolveSchema, wordingIn } from './operations';

const document: OpenApiDocument = {
  info: { title: 'Switchyard', version: '1', description: 'The API', 'x-description-zh': '接口' },
  tags: [{ name: 'Users', 'x-name-zh': '用户' }, { name: 'Empty' }, { name: 'OpenAI-compatible' }],
  paths: {
    '/v1/chat/completions': {
      post: {
        tags: ['OpenAI-compatible'],
        summary: 'Chat completion',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Chat' } } } },
      },
    },
    '/api/user/': {
      get: { tags: ['Users'], summary: 'List users', 'x-summary-zh': '用户列表' },
      post: { tags: ['Users'], summary: 'Create' },
    },
  },
  components: {
    schemas: {
      Chat: {
        type: 'object',
        properties: { messages: { type: 'array', items: { $ref: '#/components/schemas/Message' } } },
      },
      Message: { type: 'object', properties: { role: { type: 'string' } } },
    },
  },
};

describe('API reference', () => {
  it('groups operations by tag in the document’s order, leaving out empty tags', () => {
    const groups = operationsByTag(document);
    expect(groups.map(([tag, items]) => [tag, items.map((item) => `${item.method} ${item.path}`)])).toEqual([
      ['Users', ['GET /api/user/', 'POST /api/user/']],
      ['OpenAI-compatible', ['POST /v1/chat/completions']],
    ]);
  });

  it('resolves references to the schemas they name', () => {
    expect(resolveSchema(document, { $ref: '#/components/schemas/Chat' })).toEqual({
      type: 'object',
      properties: {
        messages: { type: 'array', items: { type: 'object', properties: { role: { type: 'string' } } } },
      },
    });
  });

  it('words the introduction, groups and summaries in Chinese where the document has them, else in English', () => {
    const list = document.paths['/api/user/']!.get!;
    const create = document.paths['/api/user/']!.post!;
    const zh = wordingIn('zh');
    expect([zh.intro(document), zh.tag(document, 'Users'), zh.summary(list)]).toEqual([
      '接口',
      '用户',
      '用户列表',
    ]);
    expect([zh.tag(document, 'OpenAI-compatible'), zh.summary(create)]).toEqual([
      'OpenAI-compatible',
      'Create',
    ]);
    const en = wordingIn('en');
    expect([en.intro(document), en.tag(document, 'Users'), en.summary(list)]).toEqual([
      'The API',
      'Users',
      'List users',
    ]);
  });

  it('filters by path or summary, in either language', () => {
    const [, users] = operationsByTag(document)[0]!;
    expect(users.filter((item) => matchesFilter(item, 'list'))).toHaveLength(1);
    expect(users.filter((item) => matchesFilter(item, '列表'))).toHaveLength(1);
    expect(users.filter((item) => matchesFilter(item, ''))).toHaveLength(2);
  });
});
