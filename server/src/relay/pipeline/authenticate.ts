import { isAdminRole, TokenStatus, UserStatus } from '@switchyard/contract/roles';
import { ipInCidr, parseIp } from '@switchyard/contract/subnet';
import type { UserRow } from '../../db/schema';
import { effectiveTokenStatus } from '../../domain/tokens';
import { type MaybePromise, whenReady } from '../../maybe-promise';
import { RelayError } from '../errors';
import type { CachedToken, IdentityCache } from './identity-cache';

export interface RelayCaller {
  token: CachedToken;
  user: UserRow;
  /** Set by the admin-only `sk-KEY-CHANNELID` form. */
  pinnedChannelId: number | undefined;
}

const unauthorized = (message: string) => RelayError.gateway(401, message, 'invalid_api_key');
const forbidden = (message: string, code: string) => RelayError.gateway(403, message, code);

/** Reads `Authorization: Bearer sk-KEY[-CHANNELID]` (the `Bearer ` and `sk-` prefixes are optional). */
export function parseApiKey(header: string | undefined): { key: string; channelId: string | undefined } {
  const raw = (header ?? '')
    .trim()
    .replace(/^Bearer\s+/i, '')
    .replace(/^sk-/, '');
  const [key = '', channelId] = raw.split('-');
  return { key, channelId };
}

/**
 * The token checks of the contract, in its order. The model whitelist is checked once the body is read.
 * Answered at once when the key and its user are in memory (IdentityCache), else a promise; a refusal
 * is thrown at once or rejects the same way.
 */
export function authenticate(
  identities: IdentityCache,
  authorization: string | undefined,
  clientIp: string,
): MaybePromise<RelayCaller> {
  const { key, channelId } = parseApiKey(authorization);
  if (!key) throw unauthorized('No API key provided: send it as Authorization: Bearer sk-...');
  if (key.length > 64) throw unauthorized('Invalid API key');
  return whenReady(identities.token(key), (token) => {
    checkToken(token, clientIp);
    return whenReady(identities.user(token.row.user_id), (user) => callerOf(token, user, channelId));
  });
}

function checkToken(token: CachedToken | undefined, clientIp: string): asserts token is CachedToken {
  if (!token) throw unauthorized('Invalid API key');
  const status = effectiveTokenStatus(token.row);
  if (status === TokenStatus.expired) throw unauthorized('This API key has expired');
  if (status === TokenStatus.exhausted) throw unauthorized(`API key ${token.row.name} has used up its quota`);
  if (status !== TokenStatus.enabled) throw unauthorized('This API key is disabled');
  if (token.subnets.length > 0) {
    const ip = parseIp(clientIp);
    if (!ip || !token.subnets.some((cidr) => ipInCidr(ip, cidr))) {
      throw forbidden(
        `This API key can only be used from ${token.row.subnet}; your IP is ${clientIp}`,
        'ip_not_allowed',
      );
    }
  }
}

function callerOf(token: CachedToken, user: UserRow | undefined, channelId: string | undefined): RelayCaller {
  if (!user || user.status !== UserStatus.enabled)
    throw forbidden('This user has been banned', 'user_banned');
  let pinnedChannelId: number | undefined;
  if (channelId !== undefined) {
    if (!isAdminRole(user.role))
      throw forbidden('Normal users cannot pin a channel', 'channel_pin_forbidden');
    if (!/^\d{1,15}$/.test(channelId))
      throw RelayError.gateway(400, 'Invalid channel id', 'invalid_channel_id');
    pinnedChannelId = Number(channelId);
  }
  return { token, user, pinnedChannelId };
}

export function checkModelAllowed(caller: RelayCaller, model: string): void {
  if (caller.token.models && model && !caller.token.models.has(model)) {
    throw forbidden(`This API key may not use the model ${model}`, 'model_not_allowed');
  }
}
