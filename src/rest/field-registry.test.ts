import { describe, expect, test } from 'vitest';
import { RestError } from './errors.js';
import { FieldRegistry, type FieldDefinition } from './field-registry.js';
import type { Principal, RestRequest } from './types.js';

const nobody: Principal = { id: 0, login: '', email: '', displayName: '', roles: [], can: () => false };

function requestWith(params: Record<string, unknown>, method = 'POST'): RestRequest {
  return {
    method,
    route: '/wp/v2/users/1',
    origin: { secure: false, hostname: '' },
    matchedRoute: '/wp/v2/users/(?P<id>[\\d]+)',
    params,
    urlParams: {},
    query: {},
    bodyParams: params,
    json: undefined,
    body: '',
    headers: {},
    user: nobody,
    param: (name) => params[name],
    header: () => undefined,
    deprecatedFunction: () => undefined,
    deprecatedArgument: () => undefined,
  };
}

describe('register', () => {
  test('registers a field on several object types at once', () => {
    const fields = new FieldRegistry();
    fields.register(['post', 'page'], 'views', { get: () => 1 });
    expect([...fields.fields('post').keys()]).toEqual(['views']);
    expect([...fields.fields('page').keys()]).toEqual(['views']);
    expect(fields.fields('user').size).toBe(0);
  });

  test('registering the same type and attribute again replaces the field and keeps its place', async () => {
    const fields = new FieldRegistry();
    fields.register('user', 'a', { get: () => 'first' });
    fields.register('user', 'b', { get: () => 'b' });
    fields.register('user', 'a', { get: () => 'second' });
    expect([...fields.fields('user').keys()]).toEqual(['a', 'b']);
    expect(await fields.addToResponse('user', {}, null)).toEqual({ a: 'second', b: 'b' });
  });
});

describe('addToResponse', () => {
  test('adds getter values in registration order; a field without a getter is not returned', async () => {
    const fields = new FieldRegistry();
    fields.register('user', 'colour', { get: (user) => `colour of ${String(user.id)}` });
    fields.register('user', 'secret', { update: () => true, schema: { type: 'string' } });
    fields.register('user', 'async', { get: async () => 'later' });
    const data = { id: 7, name: 'Bob' };
    expect(await fields.addToResponse('user', data, requestWith({}))).toEqual({
      id: 7,
      name: 'Bob',
      colour: 'colour of 7',
      async: 'later',
    });
    expect(data).toEqual({ id: 7, name: 'Bob' });
  });

  test('a getter overwrites a core key of the same name, in place', async () => {
    const fields = new FieldRegistry();
    fields.register('post', 'title', { get: () => 'Overridden' });
    const out = await fields.addToResponse('post', { id: 1, title: 'Core', slug: 's' }, null);
    expect(out).toEqual({ id: 1, title: 'Overridden', slug: 's' });
    expect(Object.keys(out)).toEqual(['id', 'title', 'slug']);
  });

  test('a getter gets the object built so far, the attribute, the request and the object type', async () => {
    const fields = new FieldRegistry();
    const calls: unknown[][] = [];
    const request = requestWith({ context: 'view' });
    fields.register('comment', 'first', { get: () => 1 });
    fields.register('comment', 'second', {
      get: (object, attribute, req, type) => {
        calls.push([{ ...object }, attribute, req, type]);
        object.mutated = true; // a copy, as PHP passes arrays by value
        return 2;
      },
    });
    const out = await fields.addToResponse('comment', { id: 3 }, request);
    expect(calls).toEqual([[{ id: 3, first: 1 }, 'second', request, 'comment']]);
    expect(out).toEqual({ id: 3, first: 1, second: 2 });
  });
});

describe('schemaProperties', () => {
  test('lists the schema of every field that has one', () => {
    const fields = new FieldRegistry();
    fields.register('user', 'colour', {
      get: () => 'red',
      schema: { type: 'string', description: 'Favourite colour', context: ['view', 'edit'] },
    });
    fields.register('user', 'noSchema', { get: () => 1 });
    fields.register('user', 'count', { schema: { type: 'integer', readonly: true } });
    expect(fields.schemaProperties('user')).toEqual({
      colour: { type: 'string', description: 'Favourite colour', context: ['view', 'edit'] },
      count: { type: 'integer', readonly: true },
    });
    expect(fields.schemaProperties('post')).toEqual({});
  });
});

describe('update', () => {
  test('runs an updater only when the request has the parameter, present and not null', async () => {
    const fields = new FieldRegistry();
    const seen: unknown[][] = [];
    const update: FieldDefinition['update'] = (value, object, attribute, request, type) => {
      seen.push([value, object, attribute, request.method, type]);
      return true;
    };
    fields.register('user', 'present', { update });
    fields.register('user', 'isNull', { update });
    fields.register('user', 'absent', { update });
    fields.register('user', 'falsy', { update });
    fields.register('user', 'getterOnly', { get: () => 1 });
    const user = { id: 5 };
    const result = await fields.update('user', user, requestWith({ present: 'x', isNull: null, falsy: 0, getterOnly: 'ignored' }));
    expect(result).toBe(true);
    expect(seen).toEqual([
      ['x', user, 'present', 'POST', 'user'],
      [0, user, 'falsy', 'POST', 'user'],
    ]);
  });

  test('stops at the first updater that returns an error and returns it', async () => {
    const fields = new FieldRegistry();
    const ran: string[] = [];
    const error = new RestError('rest_cannot_update', 'Nope.', { status: 403 });
    fields.register('post', 'a', { update: () => void ran.push('a') });
    fields.register('post', 'b', { update: async () => (ran.push('b'), error) });
    fields.register('post', 'c', { update: () => void ran.push('c') });
    expect(await fields.update('post', {}, requestWith({ a: 1, b: 2, c: 3 }))).toBe(error);
    expect(ran).toEqual(['a', 'b']);
  });
});

describe('endpointArgs', () => {
  const fields = new FieldRegistry();
  fields.register('user', 'colour', {
    schema: {
      type: 'string',
      description: 'Favourite colour',
      enum: ['red', 'blue'],
      context: ['edit'],
      ...{ default: 'red', required: true },
    },
  });
  fields.register('user', 'tags', { schema: { type: 'array', items: { type: 'integer' }, minimum: 3 } });
  fields.register('user', 'visits', { schema: { type: 'integer', readonly: true } });
  fields.register('user', 'contact', {
    schema: { type: 'string', format: 'email', ...{ arg_options: { required: true, default: 'x@y.zz', sanitize_callback: null } } },
  });
  fields.register('user', 'noSchema', { get: () => 1 });

  test('turns every non-readonly field schema into an argument, with default and required when creating', () => {
    const args = fields.endpointArgs('user', true);
    expect(Object.keys(args)).toEqual(['colour', 'tags', 'contact']);
    expect(args.colour).toMatchObject({
      description: 'Favourite colour',
      default: 'red',
      required: true,
      type: 'string',
      enum: ['red', 'blue'],
    });
    expect(Object.keys(args.colour)).toEqual([
      'validateCallback',
      'sanitizeCallback',
      'description',
      'default',
      'required',
      'type',
      'enum',
    ]);
    expect(args.tags).toMatchObject({ type: 'array', items: { type: 'integer' } });
    expect(args.tags).not.toHaveProperty('minimum');
    expect(args.contact).toMatchObject({ type: 'string', format: 'email', required: true, default: 'x@y.zz', sanitizeCallback: null });
  });

  test('leaves out default and required when not creating, also from arg_options', () => {
    const args = fields.endpointArgs('user', false);
    expect(args.colour).not.toHaveProperty('default');
    expect(args.colour).not.toHaveProperty('required');
    expect(args.contact).not.toHaveProperty('default');
    expect(args.contact).not.toHaveProperty('required');
  });

  test('validates and sanitizes by the field schema', () => {
    const { colour, tags } = fields.endpointArgs('user', false);
    const request = requestWith({});
    expect(colour.validateCallback?.('red', request, 'colour')).toBe(true);
    const refused = colour.validateCallback?.('green', request, 'colour');
    expect(refused).toBeInstanceOf(RestError);
    expect((refused as RestError).message).toBe('colour is not one of red, blue.');
    expect(tags.validateCallback?.('1,x', request, 'tags')).toMatchObject({ message: 'tags[1] is not of type integer.' });
    expect(tags.sanitizeCallback?.('1,2', request, 'tags')).toEqual([1, 2]);
  });
});
