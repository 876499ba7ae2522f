/** CIDR blocks for a token's `subnet` allow-list: parsed here once, for the token form and the relay. */
export interface Cidr {
  version: 4 | 6;
  /** The network address as a number (IPv4 in 32 bits, IPv6 in 128). */
  network: bigint;
  prefix: number;
}

function parseIpv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return null;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (half: string): string[] | null => {
    if (half === '') return [];
    const groups = half.split(':');
    const last = groups[groups.length - 1] ?? '';
    if (last.includes('.')) {
      const v4 = parseIpv4(last);
      if (v4 === null) return null;
      groups.splice(-1, 1, ((v4 >> 16n) & 0xffffn).toString(16), (v4 & 0xffffn).toString(16));
    }
    return groups.every((group) => /^[0-9a-fA-F]{1,4}$/.test(group)) ? groups : null;
  };
  const head = groupsOf(halves[0] ?? '');
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  return groups.reduce((value, group) => (value << 16n) | BigInt(`0x${group}`), 0n);
}

export function parseIp(text: string): { version: 4 | 6; value: bigint } | null {
  const trimmed = text.trim();
  const v4 = parseIpv4(trimmed);
  if (v4 !== null) return { version: 4, value: v4 };
  const v6 = parseIpv6(trimmed.replace(/^\[|\]$/g, ''));
  if (v6 === null) return null;
  // An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is that IPv4 address.
  if (v6 >> 32n === 0xffffn) return { version: 4, value: v6 & 0xffffffffn };
  return { version: 6, value: v6 };
}

export function parseCidr(text: string): Cidr | null {
  const [address = '', prefixText, ...rest] = text.trim().split('/');
  if (rest.length > 0 || prefixText === undefined || !/^\d{1,3}$/.test(prefixText)) return null;
  const ip = parseIp(address);
  // A block written as IPv4-mapped IPv6 is ambiguous; ask for plain IPv4 instead.
  if (!ip || (address.includes(':') && ip.version === 4)) return null;
  const prefix = Number(prefixText);
  const width = ip.version === 4 ? 32 : 128;
  if (prefix > width) return null;
  const mask = prefix === 0 ? 0n : ((1n << BigInt(prefix)) - 1n) << BigInt(width - prefix);
  return { version: ip.version, network: ip.value & mask, prefix };
}

export function ipInCidr(ip: { version: 4 | 6; value: bigint }, cidr: Cidr): boolean {
  if (ip.version !== cidr.version) return false;
  const width = cidr.version === 4 ? 32 : 128;
  const shift = BigInt(width - cidr.prefix);
  return ip.value >> shift === cidr.network >> shift;
}

/** Splits a comma list of CIDR blocks; the first entry that is not one is the error. */
export function parseSubnetList(list: string): { cidrs: Cidr[] } | { error: string; entry: string } {
  const entries = list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const cidrs: Cidr[] = [];
  for (const entry of entries) {
    const cidr = parseCidr(entry);
    if (!cidr)
      return {
        error: `"${entry}" is not a valid CIDR block such as 192.168.1.0/24 or 2001:db8::/32`,
        entry,
      };
    cidrs.push(cidr);
  }
  return { cidrs };
}
