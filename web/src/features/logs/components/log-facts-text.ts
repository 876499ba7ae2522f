import type { LogFacts, LogTokenParts } from '@switchyard/contract/log-facts';
import type { LogEntry } from '@switchyard/contract/logs';
import type { TFunction } from 'i18next';
import { renderLogQuota } from '../../../lib/format';

const ratioText = (value: number) => value.toFixed(2);

type ConsumeFacts = Extract<LogFacts, { kind: 'consume' }>;

/** The reported parts of a call's tokens, each with the ratio that priced it when it has its own. */
function partsText(facts: ConsumeFacts, t: TFunction): string[] {
  const parts: LogTokenParts = facts.parts ?? {};
  const count = (tokens: number) => tokens.toLocaleString('en-US');
  const texts: string[] = [];
  if (parts.cached) {
    const ratio = ratioText(facts.cacheReadRatio ?? 1);
    texts.push(t('logs.facts.parts.cached', { tokens: count(parts.cached), ratio }));
  }
  if (parts.cacheWrite) {
    const ratio = ratioText(facts.cacheWriteRatio ?? 1);
    texts.push(t('logs.facts.parts.cacheWrite', { tokens: count(parts.cacheWrite), ratio }));
  }
  for (const part of ['reasoning', 'audioInput', 'imageInput', 'audioOutput'] as const) {
    const tokens = parts[part];
    if (!tokens) continue;
    if (part === 'imageInput' && facts.imageInputRatio !== undefined) {
      const ratio = ratioText(facts.imageInputRatio);
      texts.push(t('logs.facts.parts.imageInputAtRatio', { tokens: count(tokens), ratio }));
    } else texts.push(t(`logs.facts.parts.${part}`, { tokens: count(tokens) }));
  }
  return texts;
}

/** The pictures a per-picture price paid for: how many, the size, the quality when one was asked. */
function picturesText(facts: ConsumeFacts, t: TFunction): string[] {
  if (!facts.images) return [];
  const { count: pictures, size, quality } = facts.images;
  return [
    quality
      ? t('logs.facts.parts.picturesOfQuality', { pictures, size, quality })
      : t('logs.facts.parts.pictures', { pictures, size }),
  ];
}

/** A consumption's price, then the parts of its tokens. */
function priceText(facts: ConsumeFacts, t: TFunction): string {
  const ratios = { modelRatio: ratioText(facts.modelRatio), groupRatio: ratioText(facts.groupRatio) };
  const price =
    facts.completionRatio === undefined
      ? t('logs.facts.consumePerUnit', ratios)
      : t('logs.facts.consumePerToken', { ...ratios, completionRatio: ratioText(facts.completionRatio) });
  return [price, ...picturesText(facts, t), ...partsText(facts, t)].join(t('logs.facts.parts.separator'));
}

/** A log line's facts in the console's language; undefined for facts this console does not know. */
function factsText(facts: LogFacts, t: TFunction): string | undefined {
  switch (facts.kind) {
    case 'consume': {
      const price = priceText(facts, t);
      if (!facts.underpaid) return price;
      const { cost, charged } = facts.underpaid;
      return t('logs.facts.underpaid', {
        price,
        cost: renderLogQuota(cost),
        charged: renderLogQuota(charged),
      });
    }
    case 'new_user_bonus':
      return t('logs.facts.newUserBonus', { quota: renderLogQuota(facts.quota) });
    case 'invitee_bonus':
      return t('logs.facts.inviteeBonus', { quota: renderLogQuota(facts.quota) });
    case 'inviter_bonus':
      return t('logs.facts.inviterBonus', { quota: renderLogQuota(facts.quota) });
    case 'top_up':
      // The administrator's own words, as they wrote them.
      return facts.remark || t('logs.facts.topUp', { quota: renderLogQuota(facts.quota), by: facts.by });
    case 'quota_change':
      return t('logs.facts.quotaChange', {
        by: facts.by,
        from: renderLogQuota(facts.from),
        to: renderLogQuota(facts.to),
      });
    case 'redemption':
      return t('logs.facts.redemption', { quota: renderLogQuota(facts.quota) });
    case 'online_top_up':
      return t('logs.facts.onlineTopUp', {
        money: `${(facts.money / 100).toFixed(2)} ${facts.currency}`,
        quota: renderLogQuota(facts.quota),
        tradeNo: facts.trade_no,
      });
    case 'top_up_refund':
      return t('logs.facts.topUpRefund', {
        by: facts.by,
        tradeNo: facts.trade_no,
        quota: renderLogQuota(facts.quota),
        ordered: renderLogQuota(facts.ordered),
      });
    case 'channel_test':
      return t(facts.success ? 'logs.facts.channelTestPassed' : 'logs.facts.channelTestFailed', {
        channel: facts.channel,
        message: facts.message,
      });
    default:
      return undefined;
  }
}

/** What a log's detail says: its facts in the console's language, else its content as written. */
export function logDetailText(log: LogEntry, t: TFunction): string {
  return (log.facts && factsText(log.facts, t)) ?? log.content;
}
