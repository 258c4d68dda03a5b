/**
 * The audit list's body from the stored text of its events (speed, issue 41/44): a row's `data`
 * is the event's canonical JSON without `id`, and the list answers each event as `{ id, ...data }`,
 * so the answer is the stored text with `"id":N,` spliced in after each `{`, instead of a
 * JSON.parse and a JSON.stringify per row. The splice is only taken when it gives the very bytes
 * JSON.stringify would: the text must be what JSON.stringify writes for what JSON.parse reads from
 * it (`isStringifyForm`). Canonical JSON is that, except for keys that are array indexes, which a
 * JS object puts first; a tampered row may be anything. Any row that is not takes the whole page
 * back to parsing.
 */
import { EncodedJson } from '../../rest/json-encoder.js';
import { eventOf } from '../../store/audit-repo.js';
import type { AuditEvent } from '../../wire/audit.js';

/** The list's data: its JSON text from the stored rows when they allow, else the parsed events. */
export function eventsJson(rows: readonly { readonly id: number; readonly data: string }[]): EncodedJson | AuditEvent[] {
  let text = '[';
  for (let k = 0; k < rows.length; k++) {
    const { id, data } = rows[k]!;
    if (!isStringifyForm(data)) return rows.map(eventOf);
    if (k > 0) text += ',';
    text += data.length === 2 ? `{"id":${id}}` : `{"id":${id},${data.slice(1)}`;
  }
  return new EncodedJson(`${text}]`, () => rows.map(eventOf));
}

/**
 * Whether `text` is a JSON object exactly as JSON.stringify writes the value JSON.parse reads from
 * it, with no `id` member and keys that a JS object keeps in their written order: no whitespace,
 * numbers as JS prints them, strings with only the escapes JSON.stringify makes, keys in strictly
 * ascending order (so no key twice, whose value JSON.parse would move) and none an array index
 * (digits only: JS puts those first). Anything else, valid JSON or not, is false.
 */
export function isStringifyForm(text: string): boolean {
  if (text.charCodeAt(0) !== 0x7b) return false;
  try {
    const scan = new Scan(text);
    return scan.object(true) && scan.i === text.length;
  } catch {
    // Nested too deep for the stack: parsed instead.
    return false;
  }
}

/** Whether s[start, end) is digits only: a key JS may order as an array index. */
function isIndex(s: string, start: number, end: number): boolean {
  if (start === end) return false;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** Whether the text s[a, aEnd) sorts strictly before s[b, bEnd), as JS compares strings (by UTF-16 units). */
function before(s: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  for (; a < aEnd && b < bEnd; a++, b++) {
    const x = s.charCodeAt(a);
    const y = s.charCodeAt(b);
    if (x !== y) return x < y;
  }
  return a === aEnd && b < bEnd;
}

/** What a string may hold only with a closer look: an escape, a control character, a surrogate. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const SPECIAL = /[\\\x00-\x1f\ud800-\udfff]/;

class Scan {
  i = 0;
  /** Set by `string`: the last string had an escape. */
  private escaped = false;

  /**
   * Speed: no backslash, control character or surrogate anywhere (one native regex test), so
   * every string runs plainly to its next quote, found by indexOf instead of a check per character.
   */
  private readonly plain: boolean;

  constructor(private readonly s: string) {
    this.plain = !SPECIAL.test(s);
  }

  private value(): boolean {
    const c = this.s.charCodeAt(this.i);
    if (c === 0x7b) return this.object(false);
    if (c === 0x5b) return this.array();
    if (c === 0x22) return this.string();
    if (c === 0x74) return this.word('true');
    if (c === 0x66) return this.word('false');
    if (c === 0x6e) return this.word('null');
    return this.number();
  }

  object(top: boolean): boolean {
    const s = this.s;
    this.i += 1;
    if (s.charCodeAt(this.i) === 0x7d) {
      this.i += 1;
      return true;
    }
    // The previous key, as its place in the text (keys have no escapes, so their text is the key).
    let previousStart = -1;
    let previousEnd = -1;
    for (;;) {
      const start = this.i + 1;
      if (s.charCodeAt(this.i) !== 0x22 || !this.string() || this.escaped) return false;
      const end = this.i - 1;
      if (isIndex(s, start, end) || (previousStart >= 0 && !before(s, previousStart, previousEnd, start, end))) return false;
      if (top && end - start === 2 && s.charCodeAt(start) === 0x69 && s.charCodeAt(start + 1) === 0x64) return false;
      previousStart = start;
      previousEnd = end;
      if (s.charCodeAt(this.i) !== 0x3a) return false;
      this.i += 1;
      if (!this.value()) return false;
      const c = s.charCodeAt(this.i);
      this.i += 1;
      if (c === 0x7d) return true;
      if (c !== 0x2c) return false;
    }
  }

  private array(): boolean {
    const s = this.s;
    this.i += 1;
    if (s.charCodeAt(this.i) === 0x5d) {
      this.i += 1;
      return true;
    }
    for (;;) {
      if (!this.value()) return false;
      const c = s.charCodeAt(this.i);
      this.i += 1;
      if (c === 0x5d) return true;
      if (c !== 0x2c) return false;
    }
  }

  private string(): boolean {
    const s = this.s;
    let i = this.i + 1;
    this.escaped = false;
    if (this.plain) {
      const end = s.indexOf('"', i);
      if (end < 0) return false;
      this.i = end + 1;
      return true;
    }
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 0x22) {
        this.i = i + 1;
        return true;
      }
      if (c !== c || c < 0x20) return false; // the end of the text (NaN), or a raw control character
      if (c === 0x5c) {
        this.escaped = true;
        const e = s.charCodeAt(i + 1);
        if (e === 0x75) {
          // \u00XX, lower-case hex, only for the control characters without a short escape.
          if (s.charCodeAt(i + 2) !== 0x30 || s.charCodeAt(i + 3) !== 0x30) return false;
          const high = s.charCodeAt(i + 4);
          const low = s.charCodeAt(i + 5);
          const lowValue = low >= 0x30 && low <= 0x39 ? low - 0x30 : low >= 0x61 && low <= 0x66 ? low - 0x57 : -1;
          if ((high !== 0x30 && high !== 0x31) || lowValue < 0) return false;
          const code = (high - 0x30) * 16 + lowValue;
          if (code === 8 || code === 9 || code === 10 || code === 12 || code === 13) return false;
          i += 6;
        } else if (e === 0x22 || e === 0x5c || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) i += 2;
        else return false;
      } else if (c >= 0xd800 && c <= 0xdfff) {
        // A surrogate pair is written as it is; a lone surrogate (escaped by JSON.stringify) is not.
        const next = s.charCodeAt(i + 1);
        if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return false;
        i += 2;
      } else i += 1;
    }
  }

  private word(word: string): boolean {
    if (!this.s.startsWith(word, this.i)) return false;
    this.i += word.length;
    return true;
  }

  private number(): boolean {
    const s = this.s;
    const start = this.i;
    let i = start;
    for (;;) {
      const c = s.charCodeAt(i);
      // Digits, '-', '+', '.', 'e' and 'E'.
      if ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45) i += 1;
      else break;
    }
    if (i === start) return false;
    const written = s.slice(start, i);
    // JS prints every finite number as valid JSON; anything it would print differently is not kept as is.
    if (String(Number(written)) !== written) return false;
    this.i = i;
    return true;
  }
}
