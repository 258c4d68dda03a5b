import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { removeScriptAndStyleElements, sanitizeTextField } from './text.js';

describe('sanitizeTextField matches WordPress sanitize_text_field', () => {
  test.each<[unknown, string]>([
    // WordPress's own cases (tests/phpunit/tests/formatting/SanitizeTextField.php)
    ['оРангутанг', 'оРангутанг'],
    ['САПР', 'САПР'],
    ['one is < two', 'one is &lt; two'],
    ['one is <\n two', 'one is &lt; two'],
    ['foo <div\n> bar', 'foo bar'],
    ['foo <\ndiv\n> bar', 'foo &lt; div > bar'],
    ['tags <span>are</span> <em>not allowed</em> here', 'tags are not allowed here'],
    [' we should trim leading and trailing whitespace ', 'we should trim leading and trailing whitespace'],
    ['we  also  trim  extra  internal  whitespace', 'we also trim extra internal whitespace'],
    ['tabs \tget removed too', 'tabs get removed too'],
    ['newlines are not welcome\n\t\t\t\there', 'newlines are not welcome here'],
    ['We also %AB remove %ab octets', 'We also remove octets'],
    [
      "We don't need to wory about %A\n\t\t\t\tB removing %a\n\t\t\t\tb octets even when %a\tB they are obscured by whitespace",
      "We don't need to wory about %A B removing %a b octets even when %a B they are obscured by whitespace",
    ],
    ['%AB%BC%DE', ''],
    ['Invalid octects remain %II', 'Invalid octects remain %II'],
    ['Nested octects %%%ABABAB %A%A%ABBB', 'Nested octects'],
    [[], ''],
    [[1, 2, 'foo'], ''],
    [{ a: 'b' }, ''],
    [2, '2'],
    [false, ''],
    [true, '1'],
    [10.1, '10.1'],
    [null, ''],
    // more tag and `<` handling
    ['<script>alert(1)</script>hello', 'hello'],
    ['<STYLE type="x">a{}</style>b', 'b'],
    ['a <!-- comment --> b', 'a b'],
    ['<?php echo 1; ?>x', 'x'],
    ['a < b > c', 'a < b > c'],
    ['1 < 2 & 3 > 2', '1 < 2 & 3 > 2'],
    ['x <a href="1>2">y</a>', 'x y'],
    ['lone < at end <', 'lone &lt; at end &lt;'],
    ['a <b\n', 'a &lt;b'],
    ['Tom & Jerry <3', 'Tom & Jerry &lt;3'],
    ["it's <\"quoted\" & 'odd'", "it's &lt;&quot;quoted&quot; &amp; &#039;odd&#039;"],
    ['<x &amp; &nbsp; &apos; &foo;', '&lt;x &amp; &nbsp; &amp;apos; &amp;foo;'],
    ['a<br/>b', 'ab'],
    ['line1<br>\nline2', 'line1 line2'],
    ['a\u0000<b>b</b>', 'ab'],
    // whitespace and octets
    ['\x0Btrimmed\x0B', 'trimmed'],
    ['\fform feed stays', '\fform feed stays'],
    ['a\r\nb', 'a b'],
    ['%41%42', ''],
    ['100%', '100%'],
    ['%zz', '%zz'],
    ['a %41 b', 'a b'],
    // invalid UTF-8 (a lone surrogate in JS) gives an empty string
    ['abc\uD800', ''],
    ['\uDC00abc', ''],
    ['emoji 😀 ok', 'emoji 😀 ok'],
  ])('%j becomes %j', (input, expected) => {
    expect(sanitizeTextField(input)).toBe(expected);
  });
});

describe('the linear-time rewrites give the same results as the WordPress loops', () => {
  /** The regex WordPress runs (quadratic on unclosed tags). */
  const byRegex = (s: string) => s.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, '');
  /** The octet loop WordPress runs. */
  const byLoop = (s: string) => {
    for (let m = /%[a-f0-9]{2}/i.exec(s); m; m = /%[a-f0-9]{2}/i.exec(s)) s = s.replaceAll(m[0], '');
    return s;
  };
  const pieces = ['<script', '<SCRIPT x="1">', '<style>', '</script>', '</Style>', '>', '<', 'a', ' ', '\n', 's', 'tyle'];
  const octetPieces = ['%', '4', '1', 'A', 'b', 'g', ' ', '%4', '%%'];

  test('removeScriptAndStyleElements equals the regex on random markup', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((p) => p.join('')),
        (s) => {
          expect(removeScriptAndStyleElements(s)).toBe(byRegex(s));
        },
      ),
      { numRuns: 3000 },
    );
  });

  test('octet removal equals the loop on random text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...octetPieces), { maxLength: 40 }).map((p) => p.join('')),
        (s) => {
          const collapsed = s.replace(/[\r\n\t ]+/g, ' ').trim();
          const loop = byLoop(collapsed);
          expect(sanitizeTextField(s)).toBe(loop === collapsed ? loop : loop.replace(/ +/g, ' ').trim());
        },
      ),
      { numRuns: 3000 },
    );
  });

  // Speed is the benchmark's business; these pin the results on inputs that are quadratic in WordPress.
  test('handles inputs that make the WordPress algorithms quadratic', () => {
    expect(sanitizeTextField('<script x'.repeat(50_000))).toBe('&lt;script x'.repeat(50_000));
    expect(sanitizeTextField('<script>'.repeat(50_000))).toBe('');
    expect(sanitizeTextField('%'.repeat(100_000) + 'AB'.repeat(100_000))).toBe('');
  });
});
