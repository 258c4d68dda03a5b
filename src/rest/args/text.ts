/**
 * WordPress `sanitize_text_field()` (4.7's `_sanitize_text_fields($str, false)`), step by step.
 */
import { escHtml } from './html-entities.js';
import { asciiLower, deleteNestedUnits, isPhpArray, phpTrim, strval } from './php.js';
import { stripTags } from './strip-tags.js';

/** A lone UTF-16 surrogate: the JS form of a string that is not valid UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const isHex = (c: string): boolean => /^[a-fA-F0-9]$/.test(c);

/**
 * Sanitizes plain text: invalid UTF-8 gives `""`; a `<` that does not start a tag becomes
 * `&lt;`, tags are stripped; line breaks, tabs and runs of spaces become one space;
 * percent-encoded octets are removed; the result is trimmed. Non-strings go through `strval`
 * first, except arrays and objects, which give `""`.
 *
 * @example
 * sanitizeTextField('  one is < two <b>bold</b>\n%41 ') // 'one is &lt; two bold'
 */
export function sanitizeTextField(input: unknown): string {
  if (isPhpArray(input)) return '';
  let text = strval(input);
  // wp_check_invalid_utf8
  if (LONE_SURROGATE.test(text)) return '';

  if (text.includes('<')) {
    // wp_pre_kses_less_than: a `<` segment that never reaches a `>` is text, so escape it.
    text = text.replace(/<[^>]*?(?:(?=<)|>|$)/g, (segment) => (segment.includes('>') ? segment : escHtml(segment)));
    text = stripAllTags(text);
    // A `<` left by strip_tags (it was followed by whitespace) must not meet a tag name once newlines go.
    text = text.replaceAll('<\n', '&lt;\n');
  }

  text = phpTrim(text.replace(/[\r\n\t ]+/g, ' '));

  // Percent-encoded octets (`%[a-f0-9]{2}`, any case) go until none is left.
  const octets = deleteNestedUnits(text, (a, b, c) => a === '%' && isHex(b) && isHex(c));
  return octets.found ? phpTrim(octets.text.replace(/ +/g, ' ')) : octets.text;
}

/** `wp_strip_all_tags($s, false)`: drops `<script>`/`<style>` elements with their content, then strip_tags, then trim. */
function stripAllTags(s: string): string {
  return phpTrim(stripTags(removeScriptAndStyleElements(s)));
}

/**
 * `preg_replace('@<(script|style)[^>]*?>.*?</\1>@si', '', $s)` in linear time: the regex
 * rescans to the end for every opening tag that is never closed, which a request can exploit.
 * An element runs from `<script…>` (up to the first `>`) to the first `</script>` after it, any case.
 */
export function removeScriptAndStyleElements(s: string): string {
  const lower = asciiLower(s); // same length, so indexes carry over
  const mayClose: Record<'script' | 'style', boolean> = { script: true, style: true };
  let out = '';
  let copied = 0;
  let gt = -1; // the first `>` after the current tag name, reused while it stays ahead
  for (let i = lower.indexOf('<'); i !== -1; i = lower.indexOf('<', i + 1)) {
    const name = lower.startsWith('script', i + 1) ? 'script' : lower.startsWith('style', i + 1) ? 'style' : null;
    if (name === null || !mayClose[name]) continue;
    if (gt < i + 1 + name.length) gt = lower.indexOf('>', i + 1 + name.length);
    if (gt === -1) break; // no `>` ahead: no later tag can open either
    const close = lower.indexOf(`</${name}>`, gt + 1);
    if (close === -1) {
      mayClose[name] = false; // no closing tag ahead of this one, so none ahead of later ones
      continue;
    }
    out += s.slice(copied, i);
    copied = close + name.length + 3;
    i = copied - 1;
  }
  return copied === 0 ? s : out + s.slice(copied);
}
