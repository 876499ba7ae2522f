import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../api/openapi-document';
import { matchesFilter, operationsByTag, resolveSchema } from './operations';

const document: OpenApiDocument = {
  info: { title: 'Switchyard', version: '1' },
  tags: [{ name: 'Users' }, { name: 'Empty' }, { name: 'OpenAI-compatible' }],
  paths: {
    '/v1/chat/completions': {
      post: {
        tags: ['OpenAI-compatible'],
        summary: 'Chat completion',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Chat' } } } },
      },
    },
    '/api/user/': {
      get: { tags: ['Users'], summary: 'List users' },
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

  it('filters by path or summary', () => {
    const [, users] = operationsByTag(document)[0]!;
    expect(users.filter((item) => matchesFilter(item, 'list'))).toHaveLength(1);
    expect(users.filter((item) => matchesFilter(item, ''))).toHaveLength(2);
  });
});
