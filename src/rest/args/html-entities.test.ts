import { describe, expect, test } from 'vitest';
import { escHtml, normalizeEntities } from './html-entities.js';

describe('escHtml matches WordPress esc_html', () => {
  test.each<[string, string]>([
    ['no specials', 'no specials'],
    ['< b & "c" \'d\'', '&lt; b &amp; &quot;c&quot; &#039;d&#039;'],
    ['AT&T', 'AT&amp;T'],
    ['&amp; &nbsp; &eacute; &hellip;', '&amp; &nbsp; &eacute; &hellip;'],
    // `apos` is allowed by kses but not an HTML 4 entity, so htmlspecialchars encodes it.
    ['&apos;', '&amp;apos;'],
    ['&foo;', '&amp;foo;'],
    ['&#65; &#0065; &#x41; &#X41;', '&#065; &#065; &#x41; &#x41;'],
    ['&#0; &#x110000; &#1114111;', '&amp;#0; &amp;#x110000; &#1114111;'],
    ['&#12345678;', '&amp;#12345678;'],
    ['&', '&amp;'],
    ['&;', '&amp;;'],
  ])('%j becomes %j', (input, expected) => {
    expect(escHtml(input)).toBe(expected);
  });
});

describe('normalizeEntities matches wp_kses_normalize_entities', () => {
  test.each<[string, string]>([
    ['AT&T', 'AT&amp;T'],
    ['&#00058;', '&#058;'],
    ['&#XYZZY;', '&amp;#XYZZY;'],
    ['&#x0003A;', '&#x3A;'],
    ['&copy; &notanentity;', '&copy; &amp;notanentity;'],
  ])('%j becomes %j', (input, expected) => {
    expect(normalizeEntities(input)).toBe(expected);
  });
});
