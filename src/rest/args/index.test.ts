import { expect, test } from 'vitest';
import * as args from './index.js';

test('exposes the helpers plugin authors use', () => {
  const functions = [
    'parseArg',
    'validateValue',
    'sanitizeValue',
    'isBoolean',
    'isEmail',
    'isIpAddress',
    'sanitizeBoolean',
    'sanitizeTextField',
    'escUrlRaw',
    'escHtml',
    'stripTags',
    'parseDate',
    'getDateWithGmt',
    'formatYmdHis',
    'avatarUrls',
    'parseAvatarSizes',
    'isNumeric',
    'toInt',
    'toFloat',
    'strval',
    'isList',
    'toList',
    'phpTruthy',
  ];
  for (const name of functions) expect(typeof (args as Record<string, unknown>)[name], name).toBe('function');
  expect(args.DEFAULT_AVATAR_SIZES).toEqual([24, 48, 96]);
  expect(args.ALLOWED_PROTOCOLS).toContain('urn');
});

test('the module example holds', () => {
  expect(args.parseArg('1,2', { type: 'array', items: { type: 'integer' } }, 'ids')).toEqual({ ok: true, value: [1, 2] });
});
