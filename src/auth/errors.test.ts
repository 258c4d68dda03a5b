import { expect, test } from 'vitest';
import { authError } from './errors.js';

test('authentication errors come from one catalogue, with their status', () => {
  expect(authError('invalid_login').toJSON()).toEqual({
    code: 'invalid_login',
    message: 'Unknown username or incorrect password.',
    data: { status: 401 },
  });
  expect(authError('invalid_username').toJSON()).toEqual({ code: 'invalid_username', message: 'Unknown username.', data: { status: 401 } });
  expect(authError('incorrect_password').status).toBe(401);
});
