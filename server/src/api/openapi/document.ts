import { z } from 'zod';
import { CONSOLE_OPERATIONS } from './console-operations';
import { type Access, type Operation, TAGS } from './operation';
import { RELAY_OPERATIONS } from './relay-operations';
import { REQUEST_SCHEMAS } from './request-schemas';

/** Every operation the reference lists: the console API, then the relay. */
const OPERATIONS: Operation[] = [...CONSOLE_OPERATIONS, ...RELAY_OPERATIONS];

/** A Fastify URL as an OpenAPI path: `:id` → `{id}`, the wildcard → `{modelAction}` (`{model}:{action}`). */
export const openApiPath = (route: string): string =>
  route.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/\*$/, '{modelAction}');

const SECURITY: Record<Access, Array<Record<string, string[]>>> = {
  public: [],
  user: [{ session: [] }, { accessToken: [] }],
  admin: [{ session: [] }, { accessToken: [] }],
  root: [{ session: [] }, { accessToken: [] }],
  key: [{ apiKey: [] }, { anthropicKey: [] }, { googleKey: [] }],
};

const jsonSchemaOf = (schema: z.ZodType): Record<string, unknown> => {
  const { $schema: _draft, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return rest;
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const envelope = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    message: { type: 'string', description: 'Empty on success; the refusal in the caller’s language' },
    code: { type: 'string', description: 'A stable refusal code (contract/src/error-messages.ts)' },
    params: { type: 'object' },
    data: {},
  },
  required: ['success', 'message'],
};

const relayError = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: {
        message: { type: 'string' },
        type: { type: 'string' },
        code: { type: ['string', 'null'] },
        param: { type: ['string', 'null'] },
      },
    },
  },
};

function describe(operation: Operation): Record<string, unknown> {
  const pathNames = [...openApiPath(operation.route).matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
  const parameters = [
    ...pathNames.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...(operation.query ?? []).map((name) => ({
      name,
      in: 'query',
      required: false,
      schema: { type: 'string' },
    })),
  ];
  const bodies = operation.body === undefined ? [] : [operation.body].flat();
  const bodySchema = bodies.length === 1 ? ref(bodies[0] as string) : { anyOf: bodies.map(ref) };
  const relay = operation.access === 'key';
  return {
    tags: [operation.tag],
    summary: operation.summary[0],
    'x-summary-zh': operation.summary[1],
    operationId: `${operation.method.toLowerCase()} ${operation.route}`,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(bodies.length > 0
      ? {
          requestBody: {
            required: true,
            content: {
              [operation.multipart ? 'multipart/form-data' : 'application/json']: { schema: bodySchema },
            },
          },
        }
      : {}),
    security: SECURITY[operation.access],
    'x-access': operation.access,
    responses: relay
      ? {
          '200': { description: 'The answer (JSON, or a stream of server-sent events)' },
          default: {
            description: 'An error',
            content: { 'application/json': { schema: ref('RelayError') } },
          },
        }
      : {
          '200': {
            description: 'The envelope; refusals too answer 200 with success: false',
            content: { 'application/json': { schema: ref('Envelope') } },
          },
        },
  };
}

/** The OpenAPI 3.1 document of every route, request bodies from the contract's zod schemas. */
export function buildOpenApiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of OPERATIONS) {
    const path = openApiPath(operation.route);
    paths[path] = { ...paths[path], [operation.method.toLowerCase()]: describe(operation) };
  }
  const schemas: Record<string, unknown> = { Envelope: envelope, RelayError: relayError };
  for (const [name, schema] of Object.entries(REQUEST_SCHEMAS)) schemas[name] = jsonSchemaOf(schema);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchyard',
      version,
      description:
        'The console API (/api: the envelope {success, message, data}; a JSON null reads as an absent field) ' +
        'and the relay (/v1, /v1beta: the providers’ own shapes).',
      'x-description-zh':
        '控制台接口（/api：统一的 {success, message, data} 结构；JSON null 视同未填写的字段）' +
        '与转发接口（/v1、/v1beta：各服务商自己的格式）。',
    },
    tags: [...new Set(OPERATIONS.map((operation) => operation.tag))].map((name) => ({
      name,
      'x-name-zh': TAGS[name],
    })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'session' },
        accessToken: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'System access token',
        },
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key (sk-…)' },
        anthropicKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        googleKey: { type: 'apiKey', in: 'header', name: 'x-goog-api-key' },
      },
    },
  };
}
