import { describe, expect, it } from 'vitest';
import { allowListTexts, INVALID_ALLOW_LIST_MESSAGE, isAllowed, parseAllowList, type AllowEntry } from './allow-list.js';

function entries(input: string): readonly AllowEntry[] {
  const result = parseAllowList(input);
  if (!result.ok) throw new Error(`expected a valid list: ${input}`);
  return result.entries;
}

describe('parseAllowList', () => {
  it('splits on line breaks and commas, drops spaces and skips empty lines', () => {
    const list = entries('192.168.1.1, 10.0.0.1 - 10.0.0.255\r\n\n  2001:db8::1  ,');
    expect(allowListTexts(list)).toEqual(['192.168.1.1', '10.0.0.1 - 10.0.0.255', '2001:db8::1']);
  });

  it('shows a range as "low - high" however it was spaced', () => {
    expect(allowListTexts(entries('10.0.0.1-10.0.0.9'))).toEqual(['10.0.0.1 - 10.0.0.9']);
  });

  it('accepts an empty list', () => {
    expect(parseAllowList('')).toEqual({ ok: true, entries: [] });
    expect(parseAllowList(' , \n')).toEqual({ ok: true, entries: [] });
  });

  it.each([
    '192.168.1.300',
    'example.com',
    '10.0.0.1 - ',
    '-10.0.0.1',
    '10.0.0.1 - 10.0.0.2 - 10.0.0.3',
    '10.0.0.0/33',
    '2001:db8::/129',
    '10.0.0.0/',
    '10.0.0.0/8/8',
    '10.0.0.0/x',
    '10.0.0.0 - 10.0.0.9/8',
    '::ffff:10.0.0.0/104',
    'fe80::1%eth0',
    '[::1]',
    '192.168.1.1, nope',
  ])('rejects the whole list when an entry is invalid: %j', (input) => {
    expect(parseAllowList(input)).toEqual({ ok: false, message: INVALID_ALLOW_LIST_MESSAGE });
  });

  it('accepts CIDR blocks of both families, shown with the host bits cleared', () => {
    expect(allowListTexts(entries('10.0.0.0/8, 192.168.1.77/24\n2001:DB8:0:0:1::/64\n0.0.0.0/0'))).toEqual([
      '10.0.0.0/8',
      '192.168.1.0/24',
      '2001:db8::/64',
      '0.0.0.0/0',
    ]);
  });

  it('uses the reference message', () => {
    expect(INVALID_ALLOW_LIST_MESSAGE).toBe('One of your IP addresses was not valid.');
  });

  it('accepts reversed and mixed-family ranges, as the reference did', () => {
    expect(parseAllowList('10.0.0.9 - 10.0.0.1').ok).toBe(true);
    expect(parseAllowList('10.0.0.1 - ::1').ok).toBe(true);
  });
});

describe('isAllowed', () => {
  const list = entries('192.168.1.1\n10.0.0.1 - 10.0.0.255\n2001:db8::1 - 2001:db8::ff\n::2\n172.16.0.9 - 172.16.0.1\n10.1.0.1 - ::1');

  it.each([
    ['192.168.1.1', true],
    ['192.168.1.2', false],
    ['10.0.0.1', true],
    ['10.0.0.255', true],
    ['10.0.1.0', false],
    ['9.255.255.255', false],
    ['::ffff:10.0.0.7', true],
    ['2001:db8::1', true],
    ['2001:db8:0::80', true],
    ['2001:db8::100', false],
    ['::2', true],
    ['::1', false],
    ['172.16.0.5', true],
    ['10.1.0.1', false],
    ['not an ip', false],
  ])('%s → %s', (address, expected) => {
    expect(isAllowed(address, list)).toBe(expected);
  });

  it.each([
    ['192.168.0.0/24', '192.168.0.200', true],
    ['192.168.0.0/24', '192.168.1.1', false],
    ['10.0.0.0/8', '10.255.255.255', true],
    ['10.0.0.0/8', '11.0.0.0', false],
    ['203.0.113.9/32', '203.0.113.9', true],
    ['203.0.113.9/32', '203.0.113.10', false],
    ['0.0.0.0/0', '8.8.8.8', true],
    ['0.0.0.0/0', '::1', false],
    ['2001:db8:1:2::/64', '2001:db8:1:2:ffff::1', true],
    ['2001:db8:1:2::/64', '2001:db8:1:3::1', false],
    ['2001:db8::/32', '2001:db8:ffff::1', true],
    ['2001:db8::/32', '2001:db9::1', false],
    ['::/0', '10.0.0.1', false],
    ['10.0.0.0/8', '::ffff:10.1.2.3', true],
  ])('CIDR %s: %s → %s', (entry, address, expected) => {
    expect(isAllowed(address, entries(entry))).toBe(expected);
  });

  it('never matches across families', () => {
    // ::a00:5 has the numeric value of 10.0.0.5.
    expect(isAllowed('::a00:5', list)).toBe(false);
  });
});
