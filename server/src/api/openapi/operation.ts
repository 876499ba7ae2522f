import type { REQUEST_SCHEMAS } from './request-schemas';

type SchemaName = keyof typeof REQUEST_SCHEMAS;

/** Who may call: a console session or access token of that role, or an API key (`key`). */
export type Access = 'public' | 'user' | 'admin' | 'root' | 'key';

/** One route as the API reference describes it. */
export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The URL as registered with Fastify (`:id`, `*`). */
  route: string;
  tag: string;
  summary: string;
  access: Access;
  /** The request body's schema by its name in components.schemas (several: any of them, by a query flag). */
  body?: SchemaName | SchemaName[];
  /** The body is multipart/form-data (audio uploads) rather than JSON. */
  multipart?: boolean;
  /** Query parameters, all optional strings. */
  query?: string[];
}

type Extra = Pick<Operation, 'body' | 'multipart' | 'query'>;

/** A compact way to write one operation. */
export const operation = (
  method: Operation['method'],
  route: string,
  tag: string,
  access: Access,
  summary: string,
  extra: Extra = {},
): Operation => ({ method, route, tag, access, summary, ...extra });
