import type { REQUEST_SCHEMAS } from './request-schemas';

type SchemaName = keyof typeof REQUEST_SCHEMAS;

/** Who may call: a console session or access token of that role, or an API key (`key`). */
export type Access = 'public' | 'user' | 'admin' | 'root' | 'key';

/**
 * A text of the reference in English (the document's own, what tools read) and in Chinese (what the
 * console's API reference page shows in Chinese), written side by side so neither can be forgotten.
 */
export type Wording = readonly [en: string, zh: string];

/** The reference's groups: the English name (the document's tag) and its Chinese name. */
export const TAGS = {
  System: '系统',
  Operations: '运维',
  Account: '账户',
  Users: '用户',
  Keys: '令牌',
  'Redemption codes': '兑换码',
  'Online top-up': '在线充值',
  Channels: '渠道',
  Logs: '日志',
  Audit: '审计',
  Options: '设置',
  'OpenAI-compatible': 'OpenAI 兼容',
  'OpenAI Responses': 'OpenAI Responses',
  'OpenAI Realtime': 'OpenAI 实时 API',
  Anthropic: 'Anthropic',
  Gemini: 'Gemini',
  Videos: '视频',
  Pricing: '价格',
  Playground: '演练场',
  Billing: '计费',
  'Not served': '未提供',
} as const;

type Tag = keyof typeof TAGS;

/** One route as the API reference describes it. */
export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The URL as registered with Fastify (`:id`, `*`). */
  route: string;
  tag: Tag;
  summary: Wording;
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
  tag: Tag,
  access: Access,
  summary: Wording,
  extra: Extra = {},
): Operation => ({ method, route, tag, access, summary, ...extra });
