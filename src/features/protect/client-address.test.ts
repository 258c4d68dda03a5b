import { describe, expect, it } from 'vitest';
import { counterKey, parseClientAddress } from './client-address.js';

describe('parseClientAddress', () => {
  it.each([
    ['192.0.2.7', 4, '192.0.2.7'],
    [' 10.0.0.1 ', 4, '10.0.0.1'],
    ['::ffff:192.0.2.7', 4, '192.0.2.7'],
    ['::FFFF:c000:0207', 4, '192.0.2.7'],
    ['[::ffff:127.0.0.1]', 4, '127.0.0.1'],
    ['2001:DB8:0:0:0:0:0:1', 6, '2001:db8::1'],
    ['2001:db8:0000:1:0:0:0:0', 6, '2001:db8:0:1::'],
    ['2001:0:0:1:0:0:0:1', 6, '2001:0:0:1::1'],
    ['2001:0:0:1:0:0:1:1', 6, '2001::1:0:0:1:1'],
    ['::1', 6, '::1'],
    ['::', 6, '::'],
    ['[2001:db8::5]', 6, '2001:db8::5'],
    ['64:ff9b::192.0.2.33', 6, '64:ff9b::c000:221'],
    ['1:2:3:4:5:6:7:8', 6, '1:2:3:4:5:6:7:8'],
  ])('normalizes %s to IPv%i %s', (raw, family, text) => {
    const address = parseClientAddress(raw);
    expect(address?.family).toBe(family);
    expect(address?.text).toBe(text);
  });

  it.each(['', 'localhost', '256.1.1.1', '01.2.3.4', '1.2.3', 'fe80::1%eth0', '2001:db8::g', '1::2::3', '192.0.2.7:80'])(
    'rejects %j',
    (raw) => {
      expect(parseClientAddress(raw)).toBeNull();
    },
  );

  it('gives IPv6 values that order like the addresses', () => {
    const a = parseClientAddress('2001:db8::ffff');
    const b = parseClientAddress('2001:db8::1:0');
    expect(a && b && a.value < b.value).toBe(true);
  });
});

describe('counterKey', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(counterKey('203.0.113.9')).toBe('203.0.113.9');
  });

  it('counts an IPv4-mapped address under its IPv4 address', () => {
    expect(counterKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
  });

  it('groups IPv6 addresses by their /64', () => {
    expect(counterKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(counterKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(counterKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(counterKey('2001::1')).toBe('2001::/64');
    expect(counterKey('::1')).toBe('::/64');
  });

  it('returns null for something that is not an address', () => {
    expect(counterKey('unix:/run/siteward.sock')).toBeNull();
  });
});
