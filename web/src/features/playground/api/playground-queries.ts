import type { LogEntry } from '@switchyard/contract/logs';
import type { PlaygroundKey } from '@switchyard/contract/playground';
import { LogType } from '@switchyard/contract/roles';
import { useQuery } from '@tanstack/react-query';
import { fetchData } from '../../../lib/api-client';

/** GET /api/playground/keys: the caller's enabled keys, masked. */
export function usePlaygroundKeys() {
  return useQuery({
    queryKey: ['playground', 'keys'],
    queryFn: () => fetchData<PlaygroundKey[]>('/api/playground/keys').then((keys) => keys ?? []),
  });
}

/** Tries at reading an answer's log line, a second apart (it is written once the call settles). */
const COST_TRIES = 15;
const COST_TRY_MS = 1000;

async function findCallLog(requestId: string): Promise<LogEntry | null> {
  for (let tried = 1; ; tried++) {
    const rows = await fetchData<LogEntry[]>('/api/log/self/search', {
      query: { keyword: requestId },
      silent: true,
    });
    const found = (rows ?? []).find((row) => row.request_id === requestId && row.type === LogType.consume);
    if (found || tried >= COST_TRIES) return found ?? null;
    await new Promise((resolve) => setTimeout(resolve, COST_TRY_MS));
  }
}

/** The usage log line of one call, by its request id (own logs' search matches request ids); null: not found in time. */
export function useCallLog(requestId: string) {
  return useQuery({
    queryKey: ['playground', 'log', requestId],
    queryFn: () => findCallLog(requestId),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}
