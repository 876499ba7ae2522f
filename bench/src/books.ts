// The books a run left: every relayed call billed once, the user's, the keys' and the logs' sums equal,
// and for the ledger floor every call of a kind at one cost, the gateway's on the same database.
import type { Billing, LogKind } from './bench-database';

export interface BooksVerdict {
  ok: boolean;
  line: string;
}

const kindName = (kind: LogKind) => (kind.stream ? 'stream' : 'non-stream');

/** The gateway's books: consume logs = counted requests, used quota = the logs' sum = the keys'. */
export function gatewayBooks(name: string, billing: Billing): BooksVerdict {
  const ok =
    billing.usedQuota === billing.logQuota &&
    billing.keysUsedQuota === billing.logQuota &&
    billing.logs === billing.requests;
  return {
    ok,
    line: `Billing check, ${name}: ${billing.logs} consume logs, ${billing.requests} counted requests, used quota ${billing.usedQuota} = keys' ${billing.keysUsedQuota} = sum of logs ${billing.logQuota}: ${ok ? 'OK' : 'MISMATCH'}`,
  };
}

/**
 * The floor's books: the gateway's check, and per kind of call one cost, so that the sum of its logs is
 * calls × cost; that cost is the gateway's for the same kind when the gateway's books are given.
 */
export function floorBooks(name: string, billing: Billing, gateway?: Billing): BooksVerdict {
  const base = gatewayBooks(name, billing);
  const problems: string[] = [];
  const costs = billing.kinds.map((kind) => {
    if (kind.minQuota !== kind.maxQuota || kind.quota !== kind.logs * kind.minQuota) {
      problems.push(`${kindName(kind)} calls cost ${kind.minQuota} to ${kind.maxQuota}`);
    }
    const reference = gateway?.kinds.find((other) => other.stream === kind.stream);
    if (reference && (reference.minQuota !== kind.minQuota || reference.maxQuota !== kind.minQuota)) {
      problems.push(`${kindName(kind)}: ${kind.minQuota} a call, the gateway's ${reference.minQuota}`);
    }
    return `${kind.logs} ${kindName(kind)} × ${kind.minQuota}`;
  });
  const ok = base.ok && problems.length === 0;
  return {
    ok,
    line: `${base.line.replace(/: (OK|MISMATCH)$/, '')}; ${costs.join(' + ') || 'no calls'}${problems.length ? ` (${problems.join('; ')})` : ''}: ${ok ? 'OK' : 'MISMATCH'}`,
  };
}
