import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessApp, type TestApp } from '../../test/helpers/test-app.js';
import type { SitewardApi } from '../plugins/api.js';
import { RestError } from './errors.js';

const seen: Record<string, unknown>[] = [];
/** The order in which the /mixed route's callbacks ran, per request. */
const calls: string[] = [];
const later = <T>(value: T): Promise<T> => Promise.resolve().then(() => value);

function plugin(api: SitewardApi): void {
  api.registerRoute('args/v1', '/typed', {
    methods: ['GET', 'POST', 'PUT'],
    args: {
      count: { type: 'integer', minimum: 1, maximum: 10 },
      ratio: { type: 'number', exclusiveMinimum: true, minimum: 0 },
      flag: { type: 'boolean' },
      name: { type: 'string' },
      color: { type: 'string', enum: ['red', 'green'] },
      tags: { type: 'array', items: { type: 'integer' } },
      when: { type: 'string', format: 'date-time' },
      email: { type: 'string', format: 'email' },
      ip: { type: 'string', format: 'ip' },
      site: { type: 'string', format: 'uri' },
      size: { type: 'integer', default: '5' },
    },
    permissionCallback: () => false,
    callback: (req) => {
      seen.push(req.params);
      return req.params;
    },
  });
  api.registerRoute('args/v1', '/open', {
    methods: ['GET', 'POST'],
    args: {
      count: { type: 'integer' },
      flag: { type: 'boolean' },
      tags: { type: 'array', items: { type: 'integer' } },
      site: { type: 'string', format: 'uri' },
      size: { type: 'integer', default: '5' },
    },
    callback: (req) => req.params,
  });
  api.registerRoute('args/v1', '/required', {
    args: { a: { required: true }, b: { required: true, type: 'string' }, c: { required: true, default: 'x' } },
    callback: () => 'ok',
  });
  api.registerRoute('args/v1', '/custom', {
    args: {
      even: {
        type: 'integer',
        validateCallback: (v) => Number(v) % 2 === 0,
      },
      word: {
        type: 'string',
        validateCallback: (v) => (v === 'bad' ? new RestError('nope', 'word must not be bad.', { status: 400 }) : true),
      },
      upper: { type: 'integer', sanitizeCallback: (v) => String(v).toUpperCase() },
      raw: { type: 'integer', sanitizeCallback: null },
    },
    callback: (req) => req.params,
  });
  // Synchronous and asynchronous callbacks mixed: WordPress's order must hold whichever answer waits.
  api.registerRoute('args/v1', '/mixed', {
    methods: 'POST',
    args: {
      a: {
        validateCallback: (v) => (calls.push('validate a'), later(v !== 'bad')),
        sanitizeCallback: (v) => (calls.push('sanitize a'), `${String(v)}!`),
      },
      b: {
        validateCallback: (v) => (calls.push('validate b'), v !== 'bad'),
        sanitizeCallback: (v) => (calls.push('sanitize b'), later(String(v).toUpperCase())),
      },
      c: {
        validateCallback: (v) => (
          calls.push('validate c'),
          later(v === 'bad' ? new RestError('c_bad', 'c is bad.', { status: 400 }) : true)
        ),
        sanitizeCallback: (v) => (calls.push('sanitize c'), later(`<${String(v)}>`)),
      },
    },
    callback: (req) => ({ a: req.params.a, b: req.params.b, c: req.params.c }),
  });
}

let app: TestApp;
beforeAll(async () => {
  app = await createInProcessApp({ plugins: [plugin] });
});
afterAll(() => app.close());

const expected = {
  count: 'count must be between 1 (inclusive) and 10 (inclusive)',
  ratio: 'ratio must be greater than 0 (exclusive)',
  flag: 'flag is not of type boolean.',
  color: 'color is not one of red, green.',
  tags: 'tags[1] is not of type integer.',
  when: 'Invalid date.',
  email: 'Invalid email address.',
  ip: '999.1.1.1 is not a valid IP address.',
};

describe('argument validation over HTTP', () => {
  const bad = {
    count: '11',
    ratio: '0',
    flag: 'maybe',
    color: 'blue',
    tags: '1,x',
    when: '2017-02-30 25:00:00',
    email: 'a@b',
    ip: '999.1.1.1',
  };

  it('lists every bad argument in one 400 rest_invalid_param from a query string, before the permission check', async () => {
    const res = await app.request({ path: `/wp-json/args/v1/typed?${new URLSearchParams(bad)}` });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      code: 'rest_invalid_param',
      message: `Invalid parameter(s): ${Object.keys(expected).join(', ')}`,
      data: { status: 400, params: expected },
    });
  });

  it('does the same for a JSON body', async () => {
    const res = await app.request({ method: 'PUT', path: '/wp-json/args/v1/typed', body: { ...bad, tags: [1, 'x'] } });
    expect(res.status).toBe(400);
    expect((res.json as { data: { params: unknown } }).data.params).toEqual(expected);
  });

  it('does the same for a form body', async () => {
    const res = await app.request({
      method: 'POST',
      path: '/wp-json/args/v1/typed',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(bad).toString(),
    });
    expect(res.status).toBe(400);
    expect((res.json as { data: { params: unknown } }).data.params).toEqual(expected);
  });

  it('names the JSON type in type errors', async () => {
    const res = await app.request({ method: 'PUT', path: '/wp-json/args/v1/typed', body: { name: 5, count: 1.5 } });
    expect((res.json as { data: { params: unknown } }).data.params).toEqual({
      count: 'count is not of type integer.',
      name: 'name is not of type string.',
    });
  });

  it('hands good values to the callback sanitized', async () => {
    const res = await app.request({ path: '/wp-json/args/v1/open?count=7&flag=FALSE&tags=1,2%203&site=example.org/x' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ count: 7, flag: false, tags: [1, 2, 3], site: 'http://example.org/x', size: 5 });
  });

  it('fills defaults and sanitizes them like sent values', async () => {
    const res = await app.request({ path: '/wp-json/args/v1/open' });
    expect((res.json as { size: unknown }).size).toBe(5);
  });

  it('answers missing required arguments with rest_missing_callback_param listing them', async () => {
    const res = await app.request({ path: '/wp-json/args/v1/required' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): a, b',
      data: { status: 400, params: ['a', 'b'] },
    });
  });

  it('runs custom validators and still checks the schema', async () => {
    const res = await app.request({ path: '/wp-json/args/v1/custom?even=3&word=bad' });
    expect(res.json).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): even, word',
      data: { status: 400, params: { even: 'Invalid parameter.', word: 'word must not be bad.' } },
    });
    const schema = await app.request({ path: '/wp-json/args/v1/custom?even=x' });
    expect((schema.json as { data: { params: unknown } }).data.params).toEqual({ even: 'Invalid parameter.' });
  });

  it('uses a sanitize callback instead of the schema, and none when it is null', async () => {
    const res = await app.request({ path: '/wp-json/args/v1/custom?upper=abc&raw=1abc' });
    expect(res.json).toMatchObject({ upper: 'ABC', raw: '1abc' });
  });
});

describe('validators and sanitizers that answer with a promise', () => {
  it('run every validator before any sanitizer, in declared order, and the callback gets the sanitized values', async () => {
    calls.length = 0;
    const res = await app.request({ method: 'POST', path: '/wp-json/args/v1/mixed', body: { a: 'x', b: 'y', c: 'z' } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ a: 'x!', b: 'Y', c: '<z>' });
    expect(calls).toEqual(['validate a', 'validate b', 'validate c', 'sanitize a', 'sanitize b', 'sanitize c']);
  });

  it('gather the failures of synchronous and asynchronous validators into one rest_invalid_param, sanitizing none', async () => {
    calls.length = 0;
    const res = await app.request({ method: 'POST', path: '/wp-json/args/v1/mixed', body: { a: 'bad', b: 'bad', c: 'bad' } });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      code: 'rest_invalid_param',
      data: { status: 400, params: { a: 'Invalid parameter.', b: 'Invalid parameter.', c: 'c is bad.' } },
    });
    expect(calls).toEqual(['validate a', 'validate b', 'validate c']);
  });
});
