/**
 * The `email` and `ip` format tests of WordPress 4.7: `is_email()` and `rest_is_ip_address()`
 * (a dotted-quad regex, then `Requests_IPv6::check_ipv6`).
 *
 * PCRE's `$` (no D modifier) also matches before a final newline, so each anchored PHP pattern
 * here ends in `\n?$`: `"1.2.3.4\n"` passes as it does in WordPress (sanitizing trims it later).
 */
import { phpTrim } from './php.js';

const LOCAL_PART = /^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+\n?$/;
const DOMAIN_LABEL = /^[a-z0-9-]+\n?$/i;

/**
 * WordPress `is_email()`: one `@` after the first character, a local part of
 * ``a-z A-Z 0-9 ! # $ % & ' * + / = ? ^ _ ` { | } ~ . -``, and a domain of two or more labels of
 * letters, digits and `-` (no `..`, no leading or trailing `.` or `-`). The 6-character minimum is
 * the validator's, not this function's.
 *
 * @example
 * isEmail('bob@example.com') // true
 */
export function isEmail(email: unknown): boolean {
  if (typeof email !== 'string' || email.length < 3) return false;
  if (email.indexOf('@', 1) === -1) return false;
  const at = email.indexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (!LOCAL_PART.test(local)) return false;
  if (/\.{2,}/.test(domain)) return false;
  if (phpTrim(domain, ' \t\n\r\0\x0B.') !== domain) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  return labels.every((label) => phpTrim(label, ' \t\n\r\0\x0B-') === label && DOMAIN_LABEL.test(label));
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\n?$/;

/**
 * WordPress 4.7 `rest_is_ip_address()`: a dotted IPv4 address with each part 0–255 (the regex
 * allows leading zeros such as `01.1.1.1`), or an IPv6 address in full, compressed (`::`) or
 * IPv4-suffixed (`::ffff:1.2.3.4`) form.
 *
 * @example
 * isIpAddress('2001:db8::1') // true
 */
export function isIpAddress(ip: unknown): boolean {
  if (typeof ip !== 'string') return false;
  return IPV4.test(ip) || isIpv6(ip);
}

/** `Requests_IPv6::check_ipv6` (the SimplePie algorithm): uncompress, split off an IPv4 tail, check each group. */
export function isIpv6(ip: string): boolean {
  const full = uncompress(ip);
  if (full === null) return false;
  const [v6, v4] = splitV6V4(full);
  const groups = v6.split(':');
  const quads = v4.split('.');
  if (!((groups.length === 8 && quads.length === 1) || (groups.length === 6 && quads.length === 4))) return false;
  // hexdec() ignores non-hex characters, but dechex(hexdec(x)) === x then fails, so a group is 1–4 hex digits.
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return false;
  // (string)(int)$part === $part: no sign, no leading zero, no trailing garbage; then 0–255.
  return quads.length === 1 || quads.every((quad) => /^(?:0|[1-9][0-9]{0,2})$/.test(quad) && Number(quad) <= 255);
}

/**
 * Expands one `::` into zero groups. Returns null where PHP 8's `str_repeat` would throw on a
 * negative count (too many groups around `::`); PHP 7 silently dropped the `::` there.
 */
function uncompress(ip: string): string | null {
  if (countOccurrences(ip, '::') !== 1) return ip;
  const [left, right] = ip.split('::');
  const c1 = left === '' ? -1 : countOccurrences(left, ':');
  let c2 = right === '' ? -1 : countOccurrences(right, ':');
  if (right.includes('.')) c2++;
  if (c1 === -1 && c2 === -1) return '0:0:0:0:0:0:0:0';
  const [unit, times, prefix] = c1 === -1 ? ['0:', 7 - c2, ''] : c2 === -1 ? [':0', 7 - c1, ''] : ['0:', 6 - c2 - c1, ':'];
  if (times < 0) return null;
  return ip.split('::').join(prefix + unit.repeat(times));
}

function countOccurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

function splitV6V4(ip: string): [string, string] {
  if (!ip.includes('.')) return [ip, ''];
  const pos = ip.lastIndexOf(':');
  // With no ':' PHP's substr($ip, 0, false) is "" and substr($ip, 1) drops the first character.
  if (pos === -1) return ['', ip.slice(1)];
  return [ip.slice(0, pos), ip.slice(pos + 1)];
}
