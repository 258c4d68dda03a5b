/**
 * WordPress `esc_url_raw()` (4.7's `esc_url($url, null, 'db')`): strip characters, guess a
 * scheme, percent-encode brackets after the authority, and refuse protocols outside the list.
 * Spec decision (docs/spec/compat.md §10): the URL is trimmed first; 4.7 turned a leading space into `%20`
 * and so refused ` http://…`.
 */
import { asciiLower, deleteNestedUnits, isPhpArray, phpTrim, phpTruthy, strval } from './php.js';
import { wpParseUrl } from './php-url.js';

/** `wp_allowed_protocols()` of WordPress 4.7. */
export const ALLOWED_PROTOCOLS: readonly string[] = [
  'http',
  'https',
  'ftp',
  'ftps',
  'mailto',
  'news',
  'irc',
  'gopher',
  'nntp',
  'feed',
  'telnet',
  'mms',
  'rtsp',
  'svn',
  'tel',
  'fax',
  'xmpp',
  'webcal',
  'urn',
];

/** Everything outside the URL character set; `\x80-\xff` in PHP's byte regex keeps every non-ASCII character. */
const DISALLOWED = /[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\uffff]/gi;

/**
 * Sanitizes a URL for storage. Returns `""` for an empty URL or a disallowed protocol
 * (`javascript:`, `data:`, …). Non-strings go through `strval`; arrays and objects give `""`.
 *
 * @example
 * escUrlRaw('example.com/a b?x[]=1') // 'http://example.com/a%20b?x%5B%5D=1'
 */
export function escUrlRaw(input: unknown, protocols: readonly string[] = ALLOWED_PROTOCOLS): string {
  let url = phpTrim(isPhpArray(input) ? '' : strval(input));
  if (url === '') return '';

  url = url.replaceAll(' ', '%20').replace(DISALLOWED, '');
  if (url === '') return '';

  // `_deep_replace` of %0d %0a %0D %0A (encoded CR/LF), so `%0%0DD` cannot reassemble into one.
  if (!/^mailto:/i.test(url)) url = deleteNestedUnits(url, (a, b, c) => a === '%' && b === '0' && 'dDaA'.includes(c)).text;
  url = url.replaceAll(';//', '://');

  // No scheme: presume http://, unless it is relative (/, #, ?) or a bare PHP file.
  if (!url.includes(':') && !['/', '#', '?'].includes(url.charAt(0)) && !/^[a-z0-9-]+?\.php/i.test(url)) {
    url = `http://${url}`;
  }

  if (url.includes('[') || url.includes(']')) url = encodeBracketsAfterAuthority(url);

  if (url.charAt(0) === '/') return url;
  const good = ksesBadProtocol(url, protocols);
  return asciiLower(good) === asciiLower(url) ? good : '';
}

/** Brackets are only valid in an IPv6 host: encode those after scheme, user info, host and port. */
function encodeBracketsAfterAuthority(url: string): string {
  const parsed = wpParseUrl(url);
  let front = '';
  if (parsed?.scheme !== undefined) front += `${parsed.scheme}://`;
  else if (url.charAt(0) === '/') front += '//';
  if (parsed?.user !== undefined) front += parsed.user;
  if (parsed?.pass !== undefined) front += `:${parsed.pass}`;
  if (parsed?.user !== undefined || parsed?.pass !== undefined) front += '@';
  if (parsed?.host !== undefined) front += parsed.host;
  if (parsed?.port !== undefined) front += `:${parsed.port}`;

  // PHP's str_replace with an empty search string returns the subject unchanged.
  const endDirty = front === '' ? url : url.split(front).join('');
  const endClean = endDirty.replaceAll('[', '%5B').replaceAll(']', '%5D');
  return endDirty === '' ? url : url.split(endDirty).join(endClean);
}

/** `wp_kses_bad_protocol`: strips disallowed protocols from the front, at most 6 rounds; still changing → `""`. */
function ksesBadProtocol(input: string, allowed: readonly string[]): string {
  let s = ksesNoNull(input);
  let original: string;
  let iterations = 0;
  do {
    original = s;
    s = badProtocolOnce(s, allowed, 1);
  } while (original !== s && ++iterations < 6);
  return original !== s ? '' : s;
}

/** `wp_kses_no_null`: control characters and `\0`-style sequences (`\\0`) go. */
function ksesNoNull(s: string): string {
  // eslint-disable-next-line no-control-regex -- the control characters kses removes
  return s.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '').replace(/\\+0+/g, '');
}

const PROTOCOL_SEPARATOR = /:|&#0*58;|&#x0*3a;/i;

/** `wp_kses_bad_protocol_once`: checks the part before the first `:` (also written `&#58;`). */
function badProtocolOnce(s: string, allowed: readonly string[], count: number): string {
  const sep = PROTOCOL_SEPARATOR.exec(s);
  // Text before the separator that contains "/?" is a path or query, not a scheme.
  if (!sep || s.slice(0, sep.index).includes('/?')) return s;
  let rest = phpTrim(s.slice(sep.index + sep[0].length));
  const protocol = badProtocolOnce2(s.slice(0, sep.index), allowed);
  if (protocol === 'feed:') {
    if (count > 2) return '';
    rest = badProtocolOnce(rest, allowed, count + 1);
    if (!phpTruthy(rest)) return rest;
  }
  return protocol + rest;
}

/** `wp_kses_bad_protocol_once2`: `"<scheme>:"` when the decoded, lower-cased scheme is allowed, else `""`. */
function badProtocolOnce2(scheme: string, allowed: readonly string[]): string {
  const decoded = asciiLower(ksesNoNull(decodeEntities(scheme).replace(/[ \t\n\v\f\r]/g, '')));
  return allowed.some((p) => asciiLower(p) === decoded) ? `${decoded}:` : '';
}

/** `wp_kses_decode_entities`: `&#65;` and `&#x41;` become the byte `chr()` gives (value modulo 256). */
function decodeEntities(s: string): string {
  const chr = (n: bigint): string => String.fromCharCode(Number(n & 255n));
  return s
    .replace(/&#([0-9]+);/g, (_m, digits: string) => chr(BigInt(digits)))
    .replace(/&#[Xx]([0-9A-Fa-f]+);/g, (_m, hex: string) => chr(BigInt(`0x${hex}`)));
}
