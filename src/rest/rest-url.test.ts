import { describe, expect, test } from 'vitest';
import { createRestUrlBuilder, restBasePaths } from './rest-url.js';

describe('restBasePaths', () => {
  test('gives /<prefix> and /index.php/<prefix>, the same object for the same prefix', () => {
    const paths = restBasePaths('wp-json');
    expect(paths).toEqual({ pretty: '/wp-json', index: '/index.php/wp-json', all: ['/wp-json', '/index.php/wp-json'] });
    expect(restBasePaths('wp-json')).toBe(paths);
    expect(restBasePaths('api/v').all).toEqual(['/api/v', '/index.php/api/v']);
  });

  test('the URL builder puts the REST root under them', () => {
    const url = (permalinks: 'pretty' | 'index' | 'plain') =>
      createRestUrlBuilder({ homeUrl: 'http://example.org/', restPrefix: 'api', permalinks });
    expect(url('pretty')('/a/b')).toBe('http://example.org/api/a/b');
    expect(url('index')('/a/b')).toBe('http://example.org/index.php/api/a/b');
    expect(url('plain')('/a/b')).toBe('http://example.org/?rest_route=/a/b');
    expect(url('pretty')('/', { secure: true, hostname: 'EXAMPLE.org' })).toBe('https://example.org/api/');
  });
});
