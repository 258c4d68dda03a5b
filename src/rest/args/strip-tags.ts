/**
 * PHP 8 `strip_tags($str)` with no allowed tags: the state machine of php_strip_tags_ex,
 * ported one state at a time. It reads characters, not bytes; every test it makes is on an
 * ASCII character, and a UTF-8 multi-byte sequence never contains one, so the result is the same.
 *
 * States: 0 text (copied), 1 inside a tag, 2 inside `<?…?>`, 3 inside `<!…>`, 4 inside `<!--…-->`.
 */

/** C `isspace` in the C locale. */
function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r';
}

/**
 * Removes HTML and PHP tags and comments as PHP's `strip_tags` does (a `<` followed by
 * whitespace is text; quotes inside a tag hide `>`; NUL characters are dropped).
 *
 * @example
 * stripTags('a <b class=">">bold</b> c') // 'a bold c'
 */
export function stripTags(input: string): string {
  let out = '';
  let state = 0;
  let depth = 0;
  let inQuote = '';
  let last = ''; // lc: the last significant character
  let brackets = 0; // br: parenthesis depth inside <? … ?>
  let isXml = false;

  for (let p = 0; p < input.length; p++) {
    const c = input[p];
    const prev = p > 0 ? input[p - 1] : undefined;
    switch (state) {
      case 0:
        if (c === '\0') break;
        if (c === '<') {
          if (inQuote) break;
          if (isSpace(input[p + 1])) {
            out += c;
            break;
          }
          last = '<';
          state = 1;
          break;
        }
        if (c === '>') {
          if (depth) {
            depth--;
            break;
          }
          if (inQuote) break;
        }
        out += c;
        break;

      case 1:
        if (c === '<') {
          if (inQuote) break;
          if (isSpace(input[p + 1])) break;
          depth++;
        } else if (c === '>') {
          if (depth) {
            depth--;
            break;
          }
          if (inQuote) break;
          last = '>';
          if (isXml && prev === '-') break;
          inQuote = '';
          state = 0;
          isXml = false;
        } else if (c === '"' || c === "'") {
          if (p !== 0 && (!inQuote || c === inQuote)) inQuote = inQuote ? '' : c;
        } else if (c === '!' && prev === '<') {
          state = 3;
          last = c;
        } else if (c === '?' && prev === '<') {
          brackets = 0;
          state = 2;
        }
        break;

      case 2:
        if (c === '(') {
          if (last !== '"' && last !== "'") {
            last = '(';
            brackets++;
          }
        } else if (c === ')') {
          if (last !== '"' && last !== "'") {
            last = ')';
            brackets--;
          }
        } else if (c === '>') {
          if (depth) {
            depth--;
            break;
          }
          if (inQuote) break;
          if (!brackets && p >= 1 && last !== '"' && prev === '?') {
            inQuote = '';
            state = 0;
          }
        } else if (c === '"' || c === "'") {
          if (p >= 1 && prev !== '\\') {
            if (last === c) last = '';
            else if (last !== '\\') last = c;
            if (p !== 0 && (!inQuote || c === inQuote)) inQuote = inQuote ? '' : c;
          }
        } else if ((c === 'l' || c === 'L') && p > 4 && /^<\?xm$/i.test(input.slice(p - 4, p))) {
          // `<?xml` is not PHP: back to an ordinary tag.
          state = 1;
          isXml = true;
        }
        break;

      case 3:
        if (c === '>') {
          if (depth) {
            depth--;
            break;
          }
          if (inQuote) break;
          inQuote = '';
          state = 0;
        } else if (c === '"' || c === "'") {
          if (p !== 0 && prev !== '\\' && (!inQuote || c === inQuote)) inQuote = inQuote ? '' : c;
        } else if (c === '-' && p >= 2 && prev === '-' && input[p - 2] === '!') {
          state = 4;
        } else if ((c === 'e' || c === 'E') && p > 6 && /^doctyp$/i.test(input.slice(p - 6, p))) {
          // `<!DOCTYPE` is read as an ordinary tag.
          state = 1;
        }
        break;

      default:
        // Inside a comment: only `-->` (outside quotes) ends it.
        if (c === '>' && !inQuote && p >= 2 && prev === '-' && input[p - 2] === '-') {
          inQuote = '';
          state = 0;
        }
        break;
    }
  }
  return out;
}
