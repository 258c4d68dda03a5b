import { describe, expect, test } from 'vitest';
import { escUrlRaw } from './url.js';

describe('escUrlRaw matches WordPress esc_url_raw', () => {
  test.each<[unknown, string]>([
    // kept as is
    ['http://example.com', 'http://example.com'],
    ['https://example.com/path?a=1&b=2#frag', 'https://example.com/path?a=1&b=2#frag'],
    [
      'http://user:pass@example.com:8080/path/to/file.php?q=foo&bar=baz#frag',
      'http://user:pass@example.com:8080/path/to/file.php?q=foo&bar=baz#frag',
    ],
    ["http://example.com/'quoted'", "http://example.com/'quoted'"],
    [
      "http://example.com/:@-._~!$&'()*+,=;:@-._~!$&'()*+,=:@-._~!$&'()*+,==?/?:@-._~!$%27()*+,;=/?:@-._~!$%27()*+,;==#/?:@-._~!$&'()*+,;=",
      "http://example.com/:@-._~!$&'()*+,=;:@-._~!$&'()*+,=:@-._~!$&'()*+,==?/?:@-._~!$%27()*+,;=/?:@-._~!$%27()*+,;==#/?:@-._~!$&'()*+,;=",
    ],
    ['http://例え.テスト/パス', 'http://例え.テスト/パス'],
    // empty and trimming (spec: trimmed first)
    ['', ''],
    ['   ', ''],
    [' http://example.com/ ', 'http://example.com/'],
    // spaces inside become %20; characters outside the set go
    ['http://example.com/Mr WordPress', 'http://example.com/Mr%20WordPress'],
    ['http://example.com/Mr%20WordPress', 'http://example.com/Mr%20WordPress'],
    ['http://example.com/<script>"x"{y}^`\\', 'http://example.com/scriptxy'],
    ['"^<>{}`', ''],
    // encoded CR/LF removed, repeatedly, except for mailto:
    ['http://example.com/watch?v=blah%0D%0A', 'http://example.com/watch?v=blah'],
    ['http://example.com/%0%0%0DDD', 'http://example.com/'],
    ['http://example.com/%0%0%0ADA', 'http://example.com/'],
    ['http://example.com/%0%0%0DAD', 'http://example.com/'],
    ['%0d', 'http://'],
    ['mailto:foo@example.com?subject=a%0D%0Ab', 'mailto:foo@example.com?subject=a%0D%0Ab'],
    // ;// is a typo for ://
    ['http;//example.com', 'http://example.com'],
    // no scheme: http:// is added unless relative or a PHP file
    ['example.com', 'http://example.com'],
    ['localhost', 'http://localhost'],
    ['example.com/foo', 'http://example.com/foo'],
    ['баба.org', 'http://баба.org'],
    ['/example.php', '/example.php'],
    ['example.php', 'example.php'],
    ['example.php?x=1', 'example.php?x=1'],
    ['#fragment', '#fragment'],
    ['?foo=bar', '?foo=bar'],
    ['//example.com/a', '//example.com/a'],
    // protocols
    ['HTTP://example.com', 'http://example.com'],
    ['Http://example.com', 'http://example.com'],
    ['ftp://example.com', 'ftp://example.com'],
    ['mailto:foo@example.com', 'mailto:foo@example.com'],
    ['tel:+15555555555', 'tel:+15555555555'],
    ['urn:isbn:0451450523', 'urn:isbn:0451450523'],
    ['feed:http://example.com/feed', 'feed:http://example.com/feed'],
    ['javascript:alert(1)', ''],
    ['JaVaScRiPt:alert(1)', ''],
    ['java script:alert(1)', ''],
    ['data:text/html;base64,PHNjcmlwdD4=', ''],
    ['nasty://example.com/', ''],
    ['&#106;avascript:alert(1)', ''],
    ['feed:javascript:alert(1)', ''],
    ['feed:feed:feed:http://x', ''],
    ['a/?b:c', 'a/?b:c'],
    ['?a:b', ''],
    ['/relative:colon', '/relative:colon'],
    // brackets are encoded after the authority (IPv6 hosts keep theirs)
    ['//[::127.0.0.1]', '//[::127.0.0.1]'],
    ['http://[::FFFF::127.0.0.1]', 'http://[::FFFF::127.0.0.1]'],
    ['http://[::127.0.0.1]', 'http://[::127.0.0.1]'],
    ['http://[::DEAD:BEEF:DEAD:BEEF:DEAD:BEEF:DEAD:BEEF]', 'http://[::DEAD:BEEF:DEAD:BEEF:DEAD:BEEF:DEAD:BEEF]'],
    ['//[::FFFF::127.0.0.1]/?foo[bar]=baz', '//[::FFFF::127.0.0.1]/?foo%5Bbar%5D=baz'],
    ['http://[::FFFF::127.0.0.1]/?foo[bar]=baz', 'http://[::FFFF::127.0.0.1]/?foo%5Bbar%5D=baz'],
    ['http://[::1]:8080/a[b]', 'http://[::1]:8080/a%5Bb%5D'],
    ['/example.php?one[]=two', '/example.php?one%5B%5D=two'],
    ['?foo[bar]=baz', '?foo%5Bbar%5D=baz'],
    ['//example.com/?foo[bar]=baz', '//example.com/?foo%5Bbar%5D=baz'],
    ['http://example.com/?foo[bar]=baz', 'http://example.com/?foo%5Bbar%5D=baz'],
    // non-strings
    [12, 'http://12'],
    [null, ''],
    [false, ''],
    [['http://example.com'], ''],
  ])('%j becomes %j', (input, expected) => {
    expect(escUrlRaw(input)).toBe(expected);
  });

  test('takes another protocol list', () => {
    expect(escUrlRaw('myapp://open', ['myapp'])).toBe('myapp://open');
    expect(escUrlRaw('http://example.com', ['myapp'])).toBe('');
  });
});

// Speed is the benchmark's business; this pins the result on the input that is quadratic in WordPress.
test('removes deeply nested encoded line breaks', () => {
  expect(escUrlRaw(`http://example.com/${'%0'.repeat(100_000)}${'D'.repeat(100_000)}x`)).toBe('http://example.com/x');
});
