import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { avatarUrls, DEFAULT_AVATAR_SIZES, parseAvatarSizes } from './avatars.js';

const md5 = (s: string): string => createHash('md5').update(s).digest('hex');

describe('avatarUrls builds Gravatar URLs keyed by size', () => {
  test('uses 24, 48 and 96 pixels by default', () => {
    const hash = md5('bob@example.com');
    expect(DEFAULT_AVATAR_SIZES).toEqual([24, 48, 96]);
    expect(avatarUrls('bob@example.com')).toEqual({
      '24': `https://secure.gravatar.com/avatar/${hash}?s=24&d=mm&r=g`,
      '48': `https://secure.gravatar.com/avatar/${hash}?s=48&d=mm&r=g`,
      '96': `https://secure.gravatar.com/avatar/${hash}?s=96&d=mm&r=g`,
    });
  });

  test.each<[string | { email: string }, string]>([
    ['bob@example.com', md5('bob@example.com')],
    ['  Bob@Example.COM \n', md5('bob@example.com')],
    [{ email: 'BOB@example.com' }, md5('bob@example.com')],
    ['ÄNNE@example.com', md5('Änne@example.com')],
    ['', md5('')],
  ])('hashes the trimmed, ASCII-lower-cased address of %j', (who, hash) => {
    expect(avatarUrls(who, [32])).toEqual({ '32': `https://secure.gravatar.com/avatar/${hash}?s=32&d=mm&r=g` });
  });

  test('takes the configured sizes, one key each', () => {
    expect(Object.keys(avatarUrls('x@example.com', [16, 512]))).toEqual(['16', '512']);
    expect(Object.keys(avatarUrls('x@example.com', []))).toEqual([]);
  });
});

describe('parseAvatarSizes reads the comma-separated setting', () => {
  test.each<[string, number[]]>([
    ['24,48,96', [24, 48, 96]],
    [' 24 , 48,96 ', [24, 48, 96]],
    ['512', [512]],
    ['96,24', [96, 24]],
  ])('%j is %j', (text, sizes) => {
    expect(parseAvatarSizes(text)).toEqual(sizes);
  });

  test.each<[string, RegExp]>([
    ['', /Invalid avatar size ""/],
    ['24,,96', /Invalid avatar size ""/],
    ['24,0', /Invalid avatar size "0"/],
    ['24,-48', /Invalid avatar size "-48"/],
    ['24,4.5', /Invalid avatar size "4.5"/],
    ['24,big', /Invalid avatar size "big"/],
    ['24,99999999999999999999', /Invalid avatar size "99999999999999999999"/],
    ['24,48,24', /Avatar size 24 is listed twice/],
  ])('refuses %j', (text, message) => {
    expect(() => parseAvatarSizes(text)).toThrow(message);
  });
});
