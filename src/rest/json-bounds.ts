/**
 * Bounds on a JSON body, checked on the text before it is parsed: `JSON.parse` of a 10 MB
 * `[{},{},…]` blocks the event loop for seconds and builds hundreds of megabytes of objects,
 * while counting its values is one pass over the characters that allocates nothing.
 */

/** PHP json_decode's default depth limit (it counts the outermost level as 1). */
export const JSON_MAX_DEPTH = 512;
/** More values than any request of the API needs (a full settings save has a few hundred). */
export const JSON_MAX_VALUES = 100_000;

export type JsonBoundsVerdict = 'ok' | 'depth' | 'values';

const QUOTE = 0x22;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/**
 * Whether the text stays within the depth and value-count limits. Values are counted as the
 * containers plus the separators between members, which is exact for valid JSON up to one per
 * container; invalid text is left for the parser to refuse.
 */
export function checkJsonBounds(text: string, maxDepth = JSON_MAX_DEPTH, maxValues = JSON_MAX_VALUES): JsonBoundsVerdict {
  let depth = 0;
  let values = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Jump over the string with the native search: string contents are most of a large body.
      let end = text.indexOf('"', i + 1);
      while (end !== -1 && escaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return 'ok';
      i = end;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > maxDepth) return 'depth';
      if (++values > maxValues) return 'values';
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
    else if (c === COMMA && ++values > maxValues) return 'values';
  }
  return 'ok';
}

/** True when the quote at `at` is escaped: preceded by an odd number of backslashes. */
function escaped(text: string, at: number): boolean {
  let n = 0;
  while (at - n - 1 >= 0 && text.charCodeAt(at - n - 1) === 0x5c) n++;
  return n % 2 === 1;
}
