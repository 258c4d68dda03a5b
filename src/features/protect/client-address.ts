import { isIPv4, isIPv6 } from 'node:net';

/** A validated IP address: its family, canonical text and numeric value (for range checks). */
export type ClientAddress =
  | { readonly family: 4; readonly text: string; readonly value: bigint }
  | { readonly family: 6; readonly text: string; readonly value: bigint };

const MAPPED_V4_PREFIX = 0xffffn << 32n;
const MASK_32 = (1n << 32n) - 1n;

/**
 * Parses and normalizes an address: IPv4 as is, IPv6 in RFC 5952 form, IPv4-mapped IPv6
 * (`::ffff:1.2.3.4`, what a dual-stack socket reports for IPv4 peers) as the IPv4 address.
 * Brackets (`[::1]`) are accepted; zone ids (`fe80::1%eth0`) and anything else are not: null.
 */
export function parseClientAddress(raw: string): ClientAddress | null {
  let text = raw.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  if (isIPv4(text)) return { family: 4, text, value: ipv4Value(text) };
  // Node's isIPv6 accepts zone ids; PHP's FILTER_VALIDATE_IP (the reference's rule) does not.
  if (text.includes('%') || !isIPv6(text)) return null;
  const value = ipv6Value(text);
  if (value >> 32n === MAPPED_V4_PREFIX >> 32n) {
    const v4 = value & MASK_32;
    return { family: 4, text: ipv4Text(v4), value: v4 };
  }
  return { family: 6, text: ipv6Text(value), value };
}

/**
 * The key failures are counted under: IPv4 addresses one by one, IPv6 by /64 (one
 * subscriber usually holds a whole /64, so counting single IPv6 addresses would let an
 * attacker rotate through 2^64 of them). Null for an unparsable address.
 */
export function counterKey(raw: string): string | null {
  const address = parseClientAddress(raw);
  if (address === null) return null;
  if (address.family === 4) return address.text;
  const prefix = (address.value >> 64n) << 64n;
  return `${ipv6Text(prefix)}/64`;
}

function ipv4Value(text: string): bigint {
  return text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function ipv4Text(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/** Assumes `text` passed isIPv6 (so at most one `::` and a well-formed IPv4 tail). */
function ipv6Value(text: string): bigint {
  let body = text;
  const tail: number[] = [];
  const lastColon = body.lastIndexOf(':');
  const last = body.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = ipv4Value(last);
    tail.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
    body = body.slice(0, lastColon + 1);
    // "::1.2.3.4" leaves "::", "a::1.2.3.4" leaves "a::", "a:b:...:1.2.3.4" leaves "a:b:...:".
    if (body.endsWith(':') && !body.endsWith('::')) body = body.slice(0, -1);
  }
  const groups = (part: string): number[] => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  let words: number[];
  const gap = body.indexOf('::');
  if (gap >= 0) {
    const head = groups(body.slice(0, gap));
    const rest = groups(body.slice(gap + 2));
    const zeros = 8 - tail.length - head.length - rest.length;
    words = [...head, ...new Array<number>(zeros).fill(0), ...rest, ...tail];
  } else {
    words = [...groups(body), ...tail];
  }
  return words.reduce((acc, word) => (acc << 16n) | BigInt(word), 0n);
}

/** RFC 5952: lowercase, no leading zeros, the longest run (≥ 2) of zero groups as `::`, first on ties. */
function ipv6Text(value: bigint): string {
  const words: number[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) words.push(Number((value >> shift) & 0xffffn));
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j += 1;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = (ws: number[]): string => ws.map((w) => w.toString(16)).join(':');
  if (bestStart < 0) return hex(words);
  return `${hex(words.slice(0, bestStart))}::${hex(words.slice(bestStart + bestLength))}`;
}
