import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';
import type Pretty from 'pino-pretty';

// Loaded only for a terminal: a server under a supervisor never prints readable lines.
const load = createRequire(import.meta.url);

/**
 * The server's log: JSON lines for log collectors, and on a terminal the same records as readable
 * lines (time, level, message, then the fields), for a person running the server by hand.
 */
export function createLogger(level: string, terminal = process.stdout.isTTY === true): Logger {
  if (!terminal) return pino({ level });
  const pretty = load('pino-pretty') as typeof Pretty;
  return pino(
    { level },
    pretty({ colorize: true, translateTime: 'SYS:yyyy-mm-dd HH:MM:ss', ignore: 'pid,hostname', sync: true }),
  );
}
