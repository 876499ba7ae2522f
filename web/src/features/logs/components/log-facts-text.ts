import type { LogFacts } from '@switchyard/contract/log-facts';
import type { LogEntry } from '@switchyard/contract/logs';
import type { TFunction } from 'i18next';
import { renderLogQuota } from '../../../lib/format';

const ratio = (value: number) => value.toFixed(2);

/** A log line's facts in the console's language; undefined for facts this console does not know. */
function factsText(facts: LogFacts, t: TFunction): string | undefined {
  switch (facts.kind) {
    case 'consume': {
      const ratios = { modelRatio: ratio(facts.modelRatio), groupRatio: ratio(facts.groupRatio) };
      const price =
        facts.completionRatio === undefined
          ? t('logs.facts.consumePerUnit', ratios)
          : t('logs.facts.consumePerToken', { ...ratios, completionRatio: ratio(facts.completionRatio) });
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
