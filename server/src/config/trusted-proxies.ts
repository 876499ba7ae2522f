import { isIP } from 'node:net';
import { type Env, fail } from './env';

/** Loopback only: a reverse proxy on the same host. */
const DEFAULT_TRUSTED_PROXIES = ['127.0.0.0/8', '::1'];

/** One address or CIDR block (`10.0.0.0/8`, `fd00::/8`); undefined when it is neither. */
function normalisedEntry(entry: string): string | undefined {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return undefined;
  if (prefix === undefined) return address;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128)) return undefined;
  return `${address}/${Number(prefix)}`;
}

/**
 * The peers whose X-Forwarded-For names the client (TRUSTED_PROXIES: comma-separated addresses and
 * CIDR blocks). Any other peer is the client itself, whatever header it sends.
 */
export function readTrustedProxies(env: Env): string[] {
  const raw = env.TRUSTED_PROXIES?.trim();
  if (!raw) return DEFAULT_TRUSTED_PROXIES;
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const normalised = normalisedEntry(entry);
      if (!normalised) fail('TRUSTED_PROXIES', `"${entry}" is not an IP address or CIDR block`);
      return normalised;
    });
}
