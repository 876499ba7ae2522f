import { channelTypeById } from '@switchyard/contract/channel-types';
import { channelBaseUrl } from '@switchyard/contract/channels';
import { request } from 'undici';
import type { ChannelRow } from '../db/schema';
import { DomainError } from '../domain/errors';

const TIMEOUT_MS = 10_000;

function dig(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | null | undefined)?.[key], value);
}

async function getJson(url: string, headers: Record<string, string>): Promise<unknown> {
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, {
      method: 'GET',
      headers,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
  } catch (error) {
    throw new DomainError(
      `Could not reach the balance endpoint: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const text = await response.body.text();
  if (response.statusCode !== 200)
    throw new DomainError(`The balance endpoint answered status code ${response.statusCode}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError('The balance endpoint did not answer JSON');
  }
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** Reads a channel's balance from its provider's billing endpoint, in the provider's own unit. */
export async function readChannelBalance(channel: ChannelRow): Promise<number> {
  const type = channelTypeById(channel.type);
  const source = type?.balance?.source;
  if (!type || !source) {
    throw new DomainError(`Reading the balance is not supported for ${type?.name.en ?? 'this'} channels`);
  }
  const base = channelBaseUrl(channel);
  const url = source.url.replaceAll('{base}', base).replaceAll('{key}', encodeURIComponent(channel.key));
  const auth: Record<string, string> =
    source.kind === 'aiproxy-overview'
      ? { 'Api-Key': channel.key }
      : { authorization: `Bearer ${channel.key}` };
  const answer = await getJson(url, auth);

  if (source.kind === 'subscription') {
    const subscription = answer as { hard_limit_usd?: number; has_payment_method?: boolean };
    const now = new Date();
    const start = subscription.has_payment_method
      ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
      : new Date(now.getTime() - 100 * 24 * 3600 * 1000);
    const usage = (await getJson(
      `${base}/v1/dashboard/billing/usage?start_date=${isoDay(start)}&end_date=${isoDay(now)}`,
      auth,
    )) as {
      total_usage?: number;
    };
    return Number(subscription.hard_limit_usd ?? 0) - Number(usage.total_usage ?? 0) / 100;
  }
  if (source.kind === 'aiproxy-overview' && (answer as { success?: boolean }).success === false) {
    throw new DomainError(
      `The provider refused: ${String((answer as { message?: string }).message ?? 'unknown error')}`,
    );
  }
  const value = Number(dig(answer, source.field));
  if (!Number.isFinite(value)) {
    const message =
      (answer as { msg?: string; message?: string }).msg ?? (answer as { message?: string }).message;
    throw new DomainError(`The balance endpoint answered no balance${message ? `: ${message}` : ''}`);
  }
  return value;
}
