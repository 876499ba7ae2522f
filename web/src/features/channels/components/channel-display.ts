import { channelTypeById } from '@switchyard/contract/channel-types';
import { updateChannelInput } from '@switchyard/contract/channels';
import { renderNumber } from '../../../lib/format';
import type { ChannelFieldChange } from '../api/channel-actions';

/**
 * Response-time colours of the list (spec section 2): untested grey; up to 1 s green; up to 3 s
 * olive (Mantine's lime); up to 5 s yellow; slower red.
 */
const RESPONSE_TIME_LEVELS = [
  { maxMs: 1000, color: 'green' },
  { maxMs: 3000, color: 'lime' },
  { maxMs: 5000, color: 'yellow' },
] as const;

export function responseTimeColor(responseTimeMs: number): string {
  if (responseTimeMs === 0) return 'gray';
  return RESPONSE_TIME_LEVELS.find((level) => responseTimeMs <= level.maxMs)?.color ?? 'red';
}

/** Milliseconds shown as seconds with two decimals: 1234 → "1.23". */
export const responseSeconds = (responseTimeMs: number): string => (responseTimeMs / 1000).toFixed(2);

/**
 * The stored balance in the unit of the channel's type (the catalogue's balance rule):
 * dollars, yuan (OpenAI-SB counts in 1/10000 yuan) or the provider's points as a quota number.
 * Null when the type cannot read a balance.
 */
export function balanceText(type: number, balance: number): string | null {
  const rule = channelTypeById(type)?.balance;
  if (!rule) return null;
  const amount = balance / (rule.divisor ?? 1);
  switch (rule.unit) {
    case 'usd':
      return `$${amount.toFixed(2)}`;
    case 'cny':
      return `¥${amount.toFixed(2)}`;
    case 'quota':
      return renderNumber(amount);
  }
}

export type OrderField = 'priority' | 'weight';

/**
 * An inline priority or weight edit → the PUT body, read with the server's own schema: an empty
 * box is ignored (null), the weight is a whole number and a negative one becomes 0.
 */
export function orderChange(id: number, field: OrderField, text: string): ChannelFieldChange | null {
  const parsed = updateChannelInput.safeParse({ id, [field]: text });
  if (!parsed.success) return null;
  if (field === 'priority')
    return parsed.data.priority === undefined ? null : { id, priority: parsed.data.priority };
  return parsed.data.weight === undefined ? null : { id, weight: parsed.data.weight };
}
