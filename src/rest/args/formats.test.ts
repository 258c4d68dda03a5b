import { describe, expect, test } from 'vitest';
import { isEmail, isIpAddress } from './formats.js';

describe('isEmail follows WordPress is_email', () => {
  test.each([
    'bob@example.com',
    'phil@example.info',
    'ace@204.32.222.14',
    'kevin@many.subdomains.make.a.happy.man.edu',
    "o'reilly+tag@ex-ample.co.uk",
    "!#$%&'*+/=?^_`{|}~.-@example.com",
    'a@b.co',
    'a@b.c',
    'BOB@EXAMPLE.COM',
    // PCRE's `$` matches before a final newline, so is_email lets this local part through.
    'bob\n@example.com',
  ])('accepts %j', (email) => {
    expect(isEmail(email)).toBe(true);
  });

  test.each([
    ['khaaaaaaaaaaaaaaan!', 'no @'],
    ['http://bob.example.com/', 'no @'],
    ["sif i'd give u it, spamer!1", 'no @'],
    ['com.exampleNOSPAMbob', 'no @'],
    ['bob@your mom', 'space in the domain'],
    ['@example.com', '@ in first position'],
    ['a@', 'shorter than 3'],
    ['bob@@example.com', 'a second @ lands in the domain'],
    ['bob@example..com', 'two dots in a row'],
    ['bob@.example.com', 'leading dot'],
    ['bob@example.com.', 'trailing dot'],
    ['bob@example.com\n', 'trailing newline in the domain'],
    ['bob@-example.com', 'label starting with -'],
    ['bob@example-.com', 'label ending with -'],
    ['bob@localhost', 'a single label'],
    ['bob@exa_mple.com', 'underscore in the domain'],
    ['bob smith@example.com', 'space in the local part'],
    ['bób@example.com', 'non-ASCII local part'],
    ['bob@exämple.com', 'non-ASCII domain'],
    ['', 'empty'],
  ])('rejects %j (%s)', (email) => {
    expect(isEmail(email)).toBe(false);
  });

  test.each([[12345678], [null], [['bob@example.com']], [true]])('rejects the non-string %j', (value) => {
    expect(isEmail(value)).toBe(false);
  });
});

describe('isIpAddress follows WordPress 4.7 rest_is_ip_address', () => {
  test.each([
    '127.0.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '192.168.1.10',
    '01.1.1.1',
    '001.002.003.004',
    '1.2.3.4\n',
    '::',
    '::1',
    '1::',
    '1::2',
    '2001:db8::ff00:42:8329',
    '2001:0db8:0000:0000:0000:ff00:0042:8329',
    'FE80::0202:B3FF:FE1E:8329',
    '1:2:3:4:5:6:7::',
    '::2:3:4:5:6:7:8',
    '::ffff:192.0.2.128',
    '::ffff:1.2.3.4',
    '0:0:0:0:0:ffff:1.2.3.4',
    '1:2:3:4:5:6:1.2.3.4',
    '1::1.2.3.4',
    // check_ipv6 lets `::` stand for zero groups.
    '1:2:3:4:5:6:7:8::',
    '1:2:3:4::5:6:7:8',
  ])('accepts %j', (ip) => {
    expect(isIpAddress(ip)).toBe(true);
  });

  test.each([
    ['256.1.1.1', 'a part above 255'],
    ['1.1.1.256', 'a part above 255'],
    ['1.1.1', 'three parts'],
    ['1.1.1.1.1', 'five parts'],
    ['1.1.1.-1', 'a negative part'],
    [' 1.1.1.1', 'leading space'],
    ['1.1.1.1 ', 'trailing space'],
    ['', 'empty'],
    ['ZZZZ', 'not an address'],
    ['1:2:3:4:5:6:7:8:9', 'nine groups'],
    ['1:2:3:4:5:6:7', 'seven groups'],
    ['1::2::3', 'two ::'],
    ['12345::1', 'a five-digit group'],
    ['g::1', 'a non-hex group'],
    [':::1', 'three colons'],
    ['1:2:3:4:5:6:7:8:9::', ':: after nine groups (PHP 8 str_repeat error)'],
    ['1:2:3:4::5:6:7:8:9', ':: between nine groups (PHP 8 str_repeat error)'],
    ['::ffff:256.1.1.1', 'an IPv4 tail part above 255'],
    ['::ffff:01.1.1.1', 'a leading zero in the IPv4 tail'],
    ['::ffff:1.2.3', 'a short IPv4 tail'],
    ['[::1]', 'brackets'],
    ['::1\n', 'trailing newline on IPv6'],
    ['::1/128', 'a prefix length'],
  ])('rejects %j (%s)', (ip) => {
    expect(isIpAddress(ip)).toBe(false);
  });

  test.each([[2130706433], [null], [['127.0.0.1']]])('rejects the non-string %j', (value) => {
    expect(isIpAddress(value)).toBe(false);
  });
});
