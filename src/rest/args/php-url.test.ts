import { describe, expect, test } from 'vitest';
import { phpParseUrl, wpParseUrl, type UrlParts } from './php-url.js';

describe('phpParseUrl matches PHP parse_url', () => {
  test.each<[string, UrlParts | null]>([
    [
      'http://username:password@hostname:9090/path?arg=value#anchor',
      {
        scheme: 'http',
        user: 'username',
        pass: 'password',
        host: 'hostname',
        port: 9090,
        path: '/path',
        query: 'arg=value',
        fragment: 'anchor',
      },
    ],
    ['//www.example.com/path?googleguy=googley', { host: 'www.example.com', path: '/path', query: 'googleguy=googley' }],
    ['a.com:80', { host: 'a.com', port: 80 }],
    ['a.com:80/x', { host: 'a.com', port: 80, path: '/x' }],
    ['mailto:x@y.z', { scheme: 'mailto', path: 'x@y.z' }],
    ['http:', { scheme: 'http' }],
    ['/path/only?q#f', { path: '/path/only', query: 'q', fragment: 'f' }],
    ['?q=1', { query: 'q=1' }],
    ['#', { fragment: '' }],
    ['', { path: '' }],
    ['http://[::1]:8080/a', { scheme: 'http', host: '[::1]', port: 8080, path: '/a' }],
    ['http://[::1]/', { scheme: 'http', host: '[::1]', path: '/' }],
    ['file:///c:/dir/file.txt', { scheme: 'file', path: 'c:/dir/file.txt' }],
    ['file:///etc/passwd', { scheme: 'file', path: '/etc/passwd' }],
    ['http://host:123456/', null],
    ['http://host:65536/', null],
    ['http://:80', null],
    ['http:///x', null],
    [':80', null],
    ['x:', { scheme: 'x' }],
  ])('%j', (url, expected) => {
    expect(phpParseUrl(url)).toEqual(expected);
  });
});

describe('wpParseUrl also parses scheme-relative and path-only URLs', () => {
  test.each<[string, UrlParts | null]>([
    ['//example.com/a?b', { host: 'example.com', path: '/a', query: 'b' }],
    ['/a/b?c=d', { path: '/a/b', query: 'c=d' }],
    ['http://example.com', { scheme: 'http', host: 'example.com' }],
  ])('%j', (url, expected) => {
    expect(wpParseUrl(url)).toEqual(expected);
  });
});
