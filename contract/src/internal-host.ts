import { type Cidr, ipInCidr, parseCidr, parseIp } from './subnet';

/** Where an address points when it is not the public internet. */
export type InternalRange = 'loopback' | 'private' | 'link-local';

const RANGES: Array<[InternalRange, string[]]> = [
  ['loopback', ['127.0.0.0/8', '0.0.0.0/8', '::1/128', '::/128']],
  ['private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7']],
  ['link-local', ['169.254.0.0/16', 'fe80::/10']],
];
const CIDRS: Array<[InternalRange, Cidr]> = RANGES.flatMap(([range, blocks]) =>
  blocks.map((block) => [range, parseCidr(block) as Cidr] as [InternalRange, Cidr]),
);

/** The WHATWG URL parser of browsers and Node (the contract compiles without DOM or Node types). */
const WhatwgUrl = (globalThis as unknown as { URL: new (input: string) => { hostname: string } }).URL;

/** The host of a URL (or a bare host name), as the URL parser normalises it; undefined when unreadable. */
function hostOf(address: string): string | undefined {
  const trimmed = address.trim();
  if (!trimmed) return undefined;
  try {
    return new WhatwgUrl(/^[a-z][a-z\d+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * The internal range an outbound address's host lies in (loopback, private or link-local), else undefined.
 * Names other than localhost are not resolved: only what the address itself says is judged. Allowed as a
 * setting; the settings form warns, since the server would then call into its own network.
 */
export function internalRangeOf(address: string): InternalRange | undefined {
  const host = hostOf(address)?.toLowerCase().replace(/\.$/, '');
  if (!host) return undefined;
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  const ip = parseIp(host);
  if (!ip) return undefined;
  return CIDRS.find(([, cidr]) => ipInCidr(ip, cidr))?.[0];
}
