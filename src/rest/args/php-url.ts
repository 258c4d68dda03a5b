/**
 * PHP 8 `parse_url()` (php_url_parse_ex2) and WordPress `wp_parse_url()`, which `esc_url` uses
 * to find where the authority of a URL ends before it percent-encodes brackets after it.
 * The C code jumps between labels; here each label is a branch of one loop.
 */

export interface UrlParts {
  scheme?: string;
  user?: string;
  pass?: string;
  host?: string;
  port?: number;
  path?: string;
  query?: string;
  fragment?: string;
}

const isAlpha = (c: string | undefined): boolean => c !== undefined && /^[A-Za-z]$/.test(c);
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
/** php_replace_controlchars: control characters become `_`. */
// eslint-disable-next-line no-control-regex -- C iscntrl() is exactly this class
const clean = (s: string): string => s.replace(/[\x00-\x1f\x7f]/g, '_');

/** The first index in [from, to) of any of `chars`, or `to`. */
function strcspn(s: string, from: number, to: number, chars: string): number {
  for (let i = from; i < to; i++) if (chars.includes(s[i])) return i;
  return to;
}

/** The last index of `ch` in [from, to), or -1 (memrchr). */
function lastIndexIn(s: string, ch: string, from: number, to: number): number {
  for (let i = to - 1; i >= from; i--) if (s[i] === ch) return i;
  return -1;
}

/** `strtol(buf, &end, 10)`: the leading integer of `buf`, or null when no digit was read. */
function strtol(buf: string): number | null {
  const m = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(buf);
  return m ? Number(m[1]) : null;
}

/**
 * PHP `parse_url($url)`: the components found, or null where PHP returns false.
 *
 * @example
 * phpParseUrl('http://[::1]:8080/a?b#c') // { scheme: 'http', host: '[::1]', port: 8080, path: '/a', query: 'b', fragment: 'c' }
 */
export function phpParseUrl(str: string): UrlParts | null {
  const ret: UrlParts = {};
  const ue = str.length;
  let s = 0;
  let e = str.indexOf(':');
  let p: number;
  let next: 'port' | 'host' | 'path';

  if (e > 0) {
    let schemeOk = true;
    for (p = s; p < e; p++) {
      const c = str[p];
      if (!isAlpha(c) && !isDigit(c) && c !== '+' && c !== '.' && c !== '-') {
        schemeOk = false;
        break;
      }
    }
    if (!schemeOk) {
      if (e + 1 < ue && e < strcspn(str, s, ue, '?#')) next = 'port';
      else if (s + 1 < ue && str[s] === '/' && str[s + 1] === '/') {
        s += 2;
        next = 'host';
      } else next = 'path';
    } else if (e + 1 === ue) {
      ret.scheme = clean(str.slice(s, e));
      return ret;
    } else if (str[e + 1] !== '/') {
      // "a.com:80" is a host and port, "mailto:x" a scheme and path.
      p = e + 1;
      while (p < ue && isDigit(str[p])) p++;
      if ((p === ue || str[p] === '/') && p - e < 7) next = 'port';
      else {
        ret.scheme = clean(str.slice(s, e));
        s = e + 1;
        next = 'path';
      }
    } else {
      ret.scheme = clean(str.slice(s, e));
      if (e + 2 < ue && str[e + 2] === '/') {
        s = e + 3;
        next = 'host';
        if (ret.scheme.toLowerCase() === 'file' && e + 3 < ue && str[e + 3] === '/') {
          // file:///c:/dir keeps the drive letter in the path.
          if (e + 5 < ue && str[e + 5] === ':') s = e + 4;
          next = 'path';
        }
      } else {
        s = e + 1;
        next = 'path';
      }
    }
  } else if (e === 0) {
    next = 'port';
  } else if (s + 1 < ue && str[s] === '/' && str[s + 1] === '/') {
    s += 2;
    next = 'host';
  } else {
    next = 'path';
  }

  if (next === 'port') {
    p = e + 1;
    let pp = p;
    while (pp < ue && pp - p < 6 && isDigit(str[pp])) pp++;
    if (pp - p > 0 && pp - p < 6 && (pp === ue || str[pp] === '/')) {
      const port = Number(str.slice(p, pp));
      if (port > 65535) return null;
      ret.port = port;
      if (s + 1 < ue && str[s] === '/' && str[s + 1] === '/') s += 2;
    } else if (p === pp && pp === ue) {
      return null;
    } else if (s + 1 < ue && str[s] === '/' && str[s + 1] === '/') {
      s += 2;
    } else {
      return justPath(str, s, ret);
    }
    next = 'host';
  }

  if (next === 'path') return justPath(str, s, ret);

  e = strcspn(str, s, ue, '/?#');
  const at = lastIndexIn(str, '@', s, e);
  if (at !== -1) {
    const colon = str.indexOf(':', s);
    if (colon !== -1 && colon < at) {
      ret.user = clean(str.slice(s, colon));
      ret.pass = clean(str.slice(colon + 1, at));
    } else {
      ret.user = clean(str.slice(s, at));
    }
    s = at + 1;
  }

  // An IPv6 literal "[…]" has colons of its own: no port scan.
  const portColon = s < ue && str[s] === '[' && str[e - 1] === ']' ? -1 : lastIndexIn(str, ':', s, e);
  let hostEnd = e;
  if (portColon !== -1) {
    hostEnd = portColon;
    if (!ret.port) {
      const digits = str.slice(portColon + 1, e);
      if (digits.length > 5) return null;
      if (digits.length > 0) {
        const port = strtol(digits);
        if (port === null || port < 0 || port > 65535) return null;
        ret.port = port;
      }
    }
  }
  if (hostEnd - s < 1) return null;
  ret.host = clean(str.slice(s, hostEnd));
  if (e === ue) return ret;
  return justPath(str, e, ret);
}

/** The `just_path` label: fragment, query and path of what is left from `s`. */
function justPath(str: string, s: number, ret: UrlParts): UrlParts {
  const ue = str.length;
  let e = ue;
  const hash = str.indexOf('#', s);
  if (hash !== -1) {
    ret.fragment = clean(str.slice(hash + 1, e));
    e = hash;
  }
  const question = str.indexOf('?', s);
  if (question !== -1 && question < e) {
    ret.query = clean(str.slice(question + 1, e));
    e = question;
  }
  if (s < e || s === ue) ret.path = clean(str.slice(s, e));
  return ret;
}

/**
 * WordPress `wp_parse_url()` (4.7): like parse_url, but also parses `//host/path` and `/path`
 * (through a placeholder scheme and host that are removed again).
 */
export function wpParseUrl(url: string): UrlParts | null {
  let drop: (keyof UrlParts)[] = [];
  let text = url;
  if (url.startsWith('//')) {
    drop = ['scheme'];
    text = `placeholder:${url}`;
  } else if (url.startsWith('/')) {
    drop = ['scheme', 'host'];
    text = `placeholder://placeholder${url}`;
  }
  const parts = phpParseUrl(text);
  if (parts) for (const key of drop) delete parts[key];
  return parts;
}
