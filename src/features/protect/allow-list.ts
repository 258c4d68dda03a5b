import { parseClientAddress, type ClientAddress } from './client-address.js';

/** One entry of `jetpack_protect_global_whitelist`; `text` is what is shown back (docs/spec/jetpack-v4-reference.md §5.4). */
export type AllowEntry =
  | { readonly kind: 'single'; readonly text: string; readonly address: ClientAddress }
  | { readonly kind: 'range'; readonly text: string; readonly low: ClientAddress; readonly high: ClientAddress }
  /** `192.168.0.0/24`, `2001:db8::/32`: shown with the host bits cleared. */
  | { readonly kind: 'cidr'; readonly text: string; readonly network: ClientAddress; readonly prefix: number };

/** The site option holding the list's entry texts (the reference's `jetpack_protect_whitelist`). */
export const ALLOW_LIST_OPTION = 'jetpack_protect_whitelist';

/**
 * The most entries a saved list may hold: each is matched on every login, and a range or CIDR
 * block covers any number of addresses. Checked when the list is saved, not when it is read, so
 * a longer list saved before this limit still protects.
 */
export const MAX_ALLOW_LIST_ENTRIES = 1000;

/** The "extra info" of the `some_updated` error when an entry is invalid (docs/spec/jetpack-v4-reference.md §6). */
export const INVALID_ALLOW_LIST_MESSAGE = 'One of your IP addresses was not valid.';

export type AllowListResult =
  | { readonly ok: true; readonly entries: readonly AllowEntry[] }
  | { readonly ok: false; readonly message: typeof INVALID_ALLOW_LIST_MESSAGE };

/**
 * Parses the option value as the reference does: spaces removed, commas become line breaks,
 * one entry per line, empty lines skipped; an entry is an IP address, `low-high`, or (beyond
 * the reference, which refused it) a CIDR block `address/prefix`. One bad entry rejects the
 * whole list (the option is then not updated).
 *
 * Kept from the reference on purpose: the ends of a range are only checked one by one, so a
 * reversed range or one mixing IPv4 and IPv6 is accepted (a mixed one matches nothing; a
 * reversed one matches as if written in order, see isAllowed).
 */
export function parseAllowList(input: string): AllowListResult {
  const entries: AllowEntry[] = [];
  const lines = input.replace(/ /g, '').replace(/,/g, '\n').split('\n');
  for (const line of lines) {
    const item = line.trim();
    if (item === '') continue;
    if (item.includes('/')) {
      const cidr = parseCidr(item);
      if (cidr === null) return invalid();
      entries.push(cidr);
      continue;
    }
    const dash = item.indexOf('-');
    // A leading dash is no range separator (the reference tests strpos() for truthiness).
    if (dash > 0) {
      const parts = item.split('-');
      const low = parseStrict(parts[0]);
      const high = parseStrict(parts[1]);
      if (parts.length !== 2 || low === null || high === null) return invalid();
      entries.push({ kind: 'range', text: `${parts[0]} - ${parts[1]}`, low, high });
    } else {
      const address = parseStrict(item);
      if (address === null) return invalid();
      entries.push({ kind: 'single', text: item, address });
    }
  }
  return { ok: true, entries };
}

/** The stored/shown form of a parsed list: `["192.168.1.1", "10.0.0.1 - 10.0.0.255"]`. */
export function allowListTexts(entries: readonly AllowEntry[]): string[] {
  return entries.map((entry) => entry.text);
}

/** Whether the client address is on the list (ranges inclusive, compared within one family). */
export function isAllowed(address: string | ClientAddress, entries: readonly AllowEntry[]): boolean {
  const client = typeof address === 'string' ? parseClientAddress(address) : address;
  if (client === null) return false;
  return entries.some((entry) => {
    if (entry.kind === 'single') return entry.address.family === client.family && entry.address.value === client.value;
    if (entry.kind === 'cidr')
      return entry.network.family === client.family && client.value >> hostBits(entry) === entry.network.value >> hostBits(entry);
    if (entry.low.family !== client.family || entry.high.family !== client.family) return false;
    const [min, max] = entry.low.value <= entry.high.value ? [entry.low.value, entry.high.value] : [entry.high.value, entry.low.value];
    return client.value >= min && client.value <= max;
  });
}

function hostBits(entry: { readonly network: ClientAddress; readonly prefix: number }): bigint {
  return BigInt((entry.network.family === 4 ? 32 : 128) - entry.prefix);
}

/** `address/prefix`, prefix 0–32 (IPv4) or 0–128 (IPv6); IPv4-mapped IPv6 is refused (its prefix would be ambiguous). */
function parseCidr(item: string): AllowEntry | null {
  const parts = item.split('/');
  if (parts.length !== 2 || !/^\d{1,3}$/.test(parts[1] ?? '')) return null;
  const address = parseStrict(parts[0]);
  const prefix = Number(parts[1]);
  if (address === null || (address.family === 4 && (parts[0] ?? '').includes(':'))) return null;
  if (prefix > (address.family === 4 ? 32 : 128)) return null;
  const bits = BigInt((address.family === 4 ? 32 : 128) - prefix);
  const value = (address.value >> bits) << bits;
  const network = parseClientAddress(address.family === 4 ? v4Text(value) : v6Text(value));
  if (network === null) return null;
  return { kind: 'cidr', text: `${network.text}/${prefix}`, network, prefix };
}

function v4Text(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/** Full eight groups; parseClientAddress puts it in RFC 5952 form. */
function v6Text(value: bigint): string {
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(((value >> shift) & 0xffffn).toString(16));
  return groups.join(':');
}

/** PHP's FILTER_VALIDATE_IP takes no brackets; parseClientAddress alone would. */
function parseStrict(text: string | undefined): ClientAddress | null {
  if (text === undefined || text === '' || text.startsWith('[')) return null;
  return parseClientAddress(text);
}

function invalid(): AllowListResult {
  return { ok: false, message: INVALID_ALLOW_LIST_MESSAGE };
}
