import type { AuditAction } from '@switchyard/contract/audit';
import type { FastifyRequest } from 'fastify';
import type { TargetRef } from '../../domain/audit/snapshots';

/**
 * Every /api route whose changes the audit log records, by `METHOD url` as registered: what the
 * action is called and how to find its target before the change and after it. A route not listed
 * here records nothing; an admin or root calling a listed one always does.
 */
export interface AuditedRoute {
  action: AuditAction | ((request: FastifyRequest) => AuditAction);
  type: TargetRef['type'];
  /** The target as it was (absent for a creation). */
  before?: (request: FastifyRequest) => TargetRef | undefined;
  /** The target(s) as they are now, from the request and the answer's `data` (absent for a removal). */
  after?: (request: FastifyRequest, data: unknown) => TargetRef | TargetRef[] | undefined;
  /** Facts of a change without a stored target; never secrets (redemption codes are left out). */
  details?: (request: FastifyRequest, data: unknown) => Record<string, unknown>;
  /** A target named from the request when nothing can be loaded (a batch of codes). */
  name?: (request: FastifyRequest) => string;
}

/** Routes that sign someone in, by how: every success and failure is recorded. */
export const SIGN_IN_ROUTES: Record<string, string> = {
  'POST /api/user/login': 'password',
  // The second step of any of these, for users with two-factor sign-in on.
  'POST /api/user/login/2fa': 'two_factor',
  'POST /api/user/login/2fa/passkey': 'passkey',
  'GET /api/oauth/github': 'github',
  'GET /api/oauth/lark': 'lark',
  'GET /api/oauth/wechat': 'wechat',
  'GET /api/oauth/oidc': 'oidc',
};

const field = (source: unknown, name: string): unknown =>
  typeof source === 'object' && source !== null ? (source as Record<string, unknown>)[name] : undefined;
const numberField = (source: unknown, name: string): number | undefined => {
  const value = Number(field(source, name));
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
};
const textField = (source: unknown, name: string): string | undefined => {
  const value = field(source, name);
  return typeof value === 'string' ? value : undefined;
};

const bodyId =
  (type: TargetRef['type'], name = 'id') =>
  (request: FastifyRequest) => ({
    type,
    id: numberField(request.body, name),
  });
const paramId = (type: TargetRef['type']) => (request: FastifyRequest) => ({
  type,
  id: numberField(request.params, 'id'),
});
const self = (request: FastifyRequest): TargetRef => ({ type: 'user', id: request.caller.id });
const ownToken = (id: number | undefined, request: FastifyRequest): TargetRef => ({
  type: 'token',
  id,
  ownerId: request.caller.id,
});

export const AUDITED_ROUTES: Record<string, AuditedRoute> = {
  'POST /api/user/': {
    action: 'user.create',
    type: 'user',
    after: (request) => ({ type: 'user', name: textField(request.body, 'username')?.trim() }),
  },
  'PUT /api/user/': { action: 'user.update', type: 'user', before: bodyId('user'), after: bodyId('user') },
  // An administrator's own profile and system access token: their sign-in credentials.
  'PUT /api/user/self': { action: 'user.update_self', type: 'user', before: self, after: self },
  'GET /api/user/token': { action: 'user.access_token', type: 'user', before: self, after: self },
  'DELETE /api/user/:id': {
    action: 'user.delete',
    type: 'user',
    before: paramId('user'),
    after: paramId('user'),
  },
  'POST /api/user/manage': {
    // The body passed the route's schema: its action is one of the five.
    action: (request) => `user.manage.${textField(request.body, 'action')}` as AuditAction,
    type: 'user',
    before: (request) => ({ type: 'user', name: textField(request.body, 'username') }),
    after: (request) => ({ type: 'user', name: textField(request.body, 'username') }),
  },
  'POST /api/topup': {
    action: 'user.topup',
    type: 'user',
    before: bodyId('user', 'user_id'),
    after: bodyId('user', 'user_id'),
  },
  'POST /api/token/': {
    action: 'token.create',
    type: 'token',
    after: (request, data) => ownToken(numberField(data, 'id'), request),
  },
  'PUT /api/token/': {
    action: 'token.update',
    type: 'token',
    before: (request) => ownToken(numberField(request.body, 'id'), request),
    after: (request) => ownToken(numberField(request.body, 'id'), request),
  },
  'DELETE /api/token/:id': {
    action: 'token.delete',
    type: 'token',
    before: (request) => ownToken(numberField(request.params, 'id'), request),
  },
  'POST /api/channel/': {
    action: 'channel.create',
    type: 'channel',
    after: (_request, data) => {
      const ids = field(data, 'ids');
      return Array.isArray(ids) ? ids.map((id) => ({ type: 'channel' as const, id: Number(id) })) : undefined;
    },
  },
  'PUT /api/channel/': {
    action: 'channel.update',
    type: 'channel',
    before: bodyId('channel'),
    after: bodyId('channel'),
  },
  'DELETE /api/channel/:id': { action: 'channel.delete', type: 'channel', before: paramId('channel') },
  'DELETE /api/channel/disabled': {
    action: 'channel.delete_disabled',
    type: 'channel',
    details: (_request, data) => ({ deleted: data }),
  },
  'PUT /api/option/': {
    action: 'option.update',
    type: 'option',
    before: (request) => ({ type: 'option', name: textField(request.body, 'key') }),
    after: (request) => ({ type: 'option', name: textField(request.body, 'key') }),
  },
  'POST /api/redemption/': {
    action: 'redemption.create',
    type: 'redemption',
    name: (request) => textField(request.body, 'name') ?? '',
    details: (request) => ({
      name: field(request.body, 'name'),
      count: field(request.body, 'count') ?? 1,
      quota: field(request.body, 'quota'),
    }),
  },
  'PUT /api/redemption/': {
    action: 'redemption.update',
    type: 'redemption',
    before: bodyId('redemption'),
    after: bodyId('redemption'),
  },
  'DELETE /api/redemption/:id': {
    action: 'redemption.delete',
    type: 'redemption',
    before: paramId('redemption'),
  },
  'DELETE /api/log/': {
    action: 'log.delete',
    type: 'log',
    details: (request, data) => ({
      target_timestamp: field(request.query, 'target_timestamp'),
      deleted: data,
    }),
  },
};

export const routeKey = (method: string, url: string): string => `${method} ${url}`;
