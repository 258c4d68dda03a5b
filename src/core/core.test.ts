import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { DEFAULT_AVATAR_SIZES, gravatarHash, gravatarUrl, parseAvatarSizes } from './gravatar.js';
import { escapeHtml } from './html.js';
import { isPlainObject } from './objects.js';
import { asciiLower, phpTrim, phpTruthy } from './php.js';

const md5 = (s: string): string => createHash('md5').update(s, 'utf8').digest('hex');

describe('escapeHtml', () => {
  test('escapes the five HTML-special characters, WordPress style', () => {
    expect(escapeHtml(`<a href="x">Tom's & Jerry</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom&#039;s &amp; Jerry&lt;/a&gt;');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
    expect(escapeHtml('plain')).toBe('plain');
  });
});

describe('phpTruthy', () => {
  test.each<[unknown, boolean]>([
    [null, false],
    [undefined, false],
    [false, false],
    [0, false],
    [-0, false],
    ['', false],
    ['0', false],
    [[], false],
    [{}, false],
    [true, true],
    [1, true],
    [NaN, true],
    ['0.0', true],
    [' ', true],
    ['false', true],
    [[0], true],
    [{ a: 0 }, true],
  ])('%j is %j', (value, expected) => {
    expect(phpTruthy(value)).toBe(expected);
  });

  test('bigints count like integers', () => {
    expect(phpTruthy(0n)).toBe(false);
    expect(phpTruthy(1n)).toBe(true);
  });

  test('asciiLower and phpTrim follow PHP 8 strtolower and trim', () => {
    expect(asciiLower('ÄNNE@EXAMPLE.com')).toBe('Änne@example.com');
    expect(phpTrim('\0 x\f\x0B')).toBe('x\f');
  });
});

describe('isPlainObject', () => {
  test.each<[unknown, boolean]>([
    [{}, true],
    [{ a: 1 }, true],
    [[], false],
    [null, false],
    ['x', false],
    [1, false],
    [undefined, false],
  ])('%j is %j', (value, expected) => {
    expect(isPlainObject(value)).toBe(expected);
  });
});

describe('Gravatar', () => {
  test('hashes md5(strtolower(trim($email))) as PHP does: ASCII-only lower-casing, PHP trim characters', () => {
    expect(gravatarHash('  Bob@Example.COM \n')).toBe(md5('bob@example.com'));
    // PHP 8 strtolower leaves non-ASCII letters alone; JavaScript's toLowerCase would not.
    expect(gravatarHash('ÄNNE@EXAMPLE.COM')).toBe(md5('Änne@example.com'));
    expect(gravatarHash('ÄNNE@EXAMPLE.COM')).not.toBe(md5('änne@example.com'));
    // PHP trim does not strip a form feed or a no-break space; String#trim would.
    expect(gravatarHash('bob@example.com\f')).toBe(md5('bob@example.com\f'));
    expect(gravatarHash('\u00a0bob@example.com')).toBe(md5('\u00a0bob@example.com'));
  });

  test('builds the HTTPS URL with size, mystery-man default and G rating', () => {
    expect(gravatarUrl('Bob@Example.com ', 24)).toBe(`https://secure.gravatar.com/avatar/${md5('bob@example.com')}?s=24&d=mm&r=g`);
  });

  test('parses the avatar-size setting', () => {
    expect(DEFAULT_AVATAR_SIZES).toEqual([24, 48, 96]);
    expect(parseAvatarSizes(' 24 , 48,96 ')).toEqual([24, 48, 96]);
    expect(parseAvatarSizes('2048', 2048)).toEqual([2048]);
    expect(() => parseAvatarSizes('4096', 2048)).toThrow(/Invalid avatar size "4096"/);
    expect(() => parseAvatarSizes('24,24')).toThrow(/listed twice/);
  });
});
