import { forbiddenTextPath } from '@switchyard/contract/plain-text';
import { isAdminRole } from '@switchyard/contract/roles';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { AuditLog } from '../../domain/audit/audit-log';
import type { Snapshot, TargetRef } from '../../domain/audit/snapshots';
import { addRouteHook } from '../route-hooks';
import { AUDITED_ROUTES, type AuditedRoute, routeKey, SIGN_IN_ROUTES } from './action-map';

const keysOf = (route: RouteOptions): string[] =>
  (Array.isArray(route.method) ? route.method : [route.method]).map((method) => routeKey(method, route.url));
const auditedOf = (request: FastifyRequest): AuditedRoute | undefined =>
  AUDITED_ROUTES[routeKey(request.method, request.routeOptions.url ?? '')];
const signInOf = (request: FastifyRequest): string | undefined =>
  SIGN_IN_ROUTES[routeKey(request.method, request.routeOptions.url ?? '')];

const byAdmin = (request: FastifyRequest): boolean =>
  request.caller !== undefined && isAdminRole(request.caller.role);

interface Envelope {
  success?: unknown;
  data?: unknown;
}

/**
 * The audit log's hooks, attached only to the routes of the action map and the sign-in routes: the
 * target is read before the handler runs and again once it answered success, and the entry written
 * before the answer leaves. A failure to write is logged, never turned into a failed answer.
 */
export function installAuditHooks(app: FastifyInstance, audit: AuditLog): void {
  const before = new WeakMap<FastifyRequest, Snapshot | undefined>();
  const audited = (route: RouteOptions) => keysOf(route).some((key) => key in AUDITED_ROUTES);
  const signIn = (route: RouteOptions) => keysOf(route).some((key) => key in SIGN_IN_ROUTES);

  addRouteHook(app, 'preHandler', audited, async (request) => {
    const spec = auditedOf(request);
    // A body the handler will refuse (NUL, broken Unicode) is not looked up: PostgreSQL would refuse the query.
    if (!spec || !byAdmin(request) || forbiddenTextPath(request.body) !== undefined) return;
    const ref = spec.before?.(request);
    if (!ref) return;
    try {
      before.set(request, await audit.snapshot(ref));
    } catch (error) {
      request.log.error({ err: error }, 'audit: the target could not be read before the change');
    }
  });

  addRouteHook(app, 'preSerialization', audited, async (request, _reply, payload) => {
    const spec = auditedOf(request);
    const answer = payload as Envelope;
    if (!spec || !byAdmin(request) || answer?.success !== true) return payload;
    try {
      await recordChange(audit, request, spec, before.get(request), answer.data);
    } catch (error) {
      request.log.error({ err: error }, 'audit entry not written');
    }
    return payload;
  });

  addRouteHook(app, 'preSerialization', signIn, async (request, _reply, payload) => {
    try {
      await recordSignIn(audit, request, signInOf(request) ?? '', payload as Envelope);
    } catch (error) {
      request.log.error({ err: error }, 'audit entry not written');
    }
    return payload;
  });
}

async function recordChange(
  audit: AuditLog,
  request: FastifyRequest,
  spec: AuditedRoute,
  previous: Snapshot | undefined,
  data: unknown,
): Promise<void> {
  const action = typeof spec.action === 'string' ? spec.action : spec.action(request);
  const found = spec.after?.(request, data);
  const refs: Array<TargetRef | undefined> = Array.isArray(found) ? found : [found];
  const common = { actor: request.caller, ip: request.ip, action, targetType: spec.type };
  const details = spec.details?.(request, data);
  const named = spec.name ? { id: '', name: spec.name(request), fields: {} } : undefined;
  for (const ref of refs) {
    const after = ref ? await audit.snapshot(ref) : undefined;
    await audit.record({ ...common, before: previous, after, details, target: named });
  }
}

const isUser = (data: unknown): data is { id: number; username: string; role: number } =>
  typeof data === 'object' && data !== null && typeof (data as { id?: unknown }).id === 'number';

async function recordSignIn(
  audit: AuditLog,
  request: FastifyRequest,
  how: string,
  answer: Envelope,
): Promise<void> {
  const details = { method: how };
  if (answer?.success === true) {
    // A signed-in caller binding an account answers success without a user: not a sign-in.
    if (!isUser(answer.data)) return;
    const { id, username, role } = answer.data;
    const target = { id: String(id), name: username, fields: {} };
    await audit.record({
      actor: { id, username, role },
      ip: request.ip,
      action: 'auth.login',
      targetType: 'user',
      target,
      details,
    });
    return;
  }
  // The name that was tried; the account it names, when there is one, is the actor (so root's stay root's).
  const body = request.body as { username?: unknown } | undefined;
  const typed =
    typeof body?.username === 'string' ? body.username : (request.session?.twoFactor?.username ?? '');
  const tried = typed.trim().slice(0, 64);
  const account = tried ? await audit.snapshot({ type: 'user', name: tried }) : undefined;
  const actor = {
    id: account ? Number(account.id) : 0,
    username: tried,
    role: Number(account?.fields.role ?? 0),
  };
  await audit.record({
    actor,
    ip: request.ip,
    action: 'auth.login_failed',
    targetType: 'user',
    target: account ?? undefined,
    details,
  });
}
