import type { NewLogRow } from '../schema';

export interface Settlement {
  userId: number;
  tokenId: number;
  unlimitedToken: boolean;
  channelId: number;
  /** Final quota of the call. */
  quota: number;
  /** quota − what was reserved. */
  delta: number;
  elapsedMs: number;
  log: NewLogRow | undefined;
}

export interface UserChange {
  /** Taken from the quota (negative: given back). */
  delta: number;
  spent: number;
  calls: number;
}

export interface TokenChange {
  remainDelta: number;
  usedDelta: number;
}

export interface ChannelChange {
  spent: number;
  /** The last call's response time. */
  responseTimeMs: number;
}

/** Many settled calls folded into one change per user, token and channel, plus their logs. */
export interface SettlementTotals {
  users: Map<number, UserChange>;
  tokens: Map<number, TokenChange>;
  channels: Map<number, ChannelChange>;
  logs: NewLogRow[];
}

export function totalSettlements(settlements: Settlement[]): SettlementTotals {
  const totals: SettlementTotals = { users: new Map(), tokens: new Map(), channels: new Map(), logs: [] };
  for (const s of settlements) {
    const user = totals.users.get(s.userId) ?? { delta: 0, spent: 0, calls: 0 };
    user.delta += s.delta;
    user.spent += s.quota;
    user.calls += 1;
    totals.users.set(s.userId, user);
    // A limited token's reservation already counted as used; an unlimited one only counts use.
    const token = totals.tokens.get(s.tokenId) ?? { remainDelta: 0, usedDelta: 0 };
    token.remainDelta += s.unlimitedToken ? 0 : s.delta;
    token.usedDelta += s.unlimitedToken ? s.quota : s.delta;
    totals.tokens.set(s.tokenId, token);
    const channel = totals.channels.get(s.channelId) ?? { spent: 0, responseTimeMs: 0 };
    channel.spent += s.quota;
    channel.responseTimeMs = s.elapsedMs;
    totals.channels.set(s.channelId, channel);
    if (s.log) totals.logs.push(s.log);
  }
  return totals;
}
