import { channelTypeById } from '@switchyard/contract/channel-types';
import { channelBaseUrl } from '@switchyard/contract/channels';
import type { ChannelRow } from '../db/schema';
import type { ChannelService } from './channels';
import { DomainError } from './errors';
import { requestJson } from './outbound-json';
import { redactSecrets } from './redact-secrets';

/** Providers' billing endpoints can be slow: they get longer than the other outbound calls. */
const TIMEOUT_MS = 10_000;

function dig(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | null | undefined)?.[key], value);
}

async function getJson(url: string, headers: Record<string, string>): Promise<unknown> {
  const answer = await requestJson('balance', url, { method: 'GET', headers, timeoutMs: TIMEOUT_MS });
  if (answer.status !== 200) throw new DomainError('balance_status', { status: answer.status });
  if (answer.body === undefined) throw new DomainError('balance_not_json');
  return answer.body;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** DeepSeek lists one balance per currency; one-api stores the yuan one. */
function deepSeekYuan(answer: unknown, field: string): unknown {
  const infos = (answer as { balance_infos?: unknown }).balance_infos;
  const yuan = Array.isArray(infos)
    ? infos.find((info) => (info as { currency?: unknown } | null)?.currency === 'CNY')
    : undefined;
  if (!yuan) throw new DomainError('balance_currency_missing', { currency: 'CNY' });
  return dig(yuan, field);
}

/** SiliconFlow answers `code` 20000 on success, its own code and message otherwise. */
function siliconFlowChecked(answer: unknown, key: string): unknown {
  const { code, message } = answer as { code?: unknown; message?: unknown };
  if (code === 20000) return answer;
  const reason = `code: ${String(code)}, message: ${String(message ?? '')}`;
  throw new DomainError('balance_provider_refused', { reason: redactSecrets(reason, key) });
}

/** Reads a channel's balance from its provider's billing endpoint, in the provider's own unit. */
async function readChannelBalance(channel: ChannelRow): Promise<number> {
  const type = channelTypeById(channel.type);
  const source = type?.balance?.source;
  if (!type || !source) {
    throw type
      ? new DomainError('balance_unsupported', { type: type.name.en })
      : new DomainError('balance_unsupported_type');
  }
  const base = channelBaseUrl(channel);
  const url = source.url
    .replaceAll('{base}', base)
    .replaceAll('{root}', base.replace(/\/v1$/, ''))
    .replaceAll('{key}', encodeURIComponent(channel.key));
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
    const reason = (answer as { message?: unknown }).message;
    throw reason === undefined || reason === null
      ? new DomainError('balance_provider_refused_unexplained')
      : new DomainError('balance_provider_refused', { reason: redactSecrets(String(reason), channel.key) });
  }
  const value = Number(
    source.kind === 'deepseek'
      ? deepSeekYuan(answer, source.field)
      : dig(source.kind === 'siliconflow' ? siliconFlowChecked(answer, channel.key) : answer, source.field),
  );
  if (!Number.isFinite(value)) {
    const message =
      (answer as { msg?: string; message?: string }).msg ?? (answer as { message?: string }).message;
    throw message
      ? new DomainError('balance_missing_because', { reason: redactSecrets(message, channel.key) })
      : new DomainError('balance_missing');
  }
  return value;
}

/** Channel balances as the console refreshes them: read from the provider, then recorded. */
export class ChannelBalances {
  constructor(private readonly deps: { channels: ChannelService }) {}

  async update(id: number): Promise<number> {
    const channel = await this.deps.channels.getRow(id);
    const balance = await readChannelBalance(channel);
    await this.deps.channels.recordBalance(channel.id, balance);
    return balance;
  }
}
