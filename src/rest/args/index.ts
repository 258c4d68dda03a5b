/**
 * The argument-schema helpers for plugin authors: WordPress 4.7's argument validation and
 * sanitizing (spec Parts 4.5–4.8) and the PHP value semantics they rest on. Each function's
 * JSDoc, with an example, sits on its declaration.
 *
 * @example
 * import { parseArg } from './args/index.js';
 * parseArg('1,2', { type: 'array', items: { type: 'integer' } }, 'ids') // { ok: true, value: [1, 2] }
 */

// Validation, sanitizing and parsing of one argument.
export { parseArg, type ParseResult } from './parse.js';
export { validateValue, isBoolean, isEmail, isIpAddress } from './validate.js';
export { sanitizeValue, sanitizeBoolean } from './sanitize.js';

// The sanitizers the formats use.
export { sanitizeTextField } from './text.js';
export { escUrlRaw, ALLOWED_PROTOCOLS } from './url.js';
export { escHtml } from './html-entities.js';
export { stripTags } from './strip-tags.js';

// Dates and avatars.
export { parseDate, getDateWithGmt, formatYmdHis } from './dates.js';
export { avatarUrls, parseAvatarSizes, DEFAULT_AVATAR_SIZES } from './avatars.js';

// PHP value semantics.
export { isNumeric, toInt, toFloat, strval, isList, toList, phpTruthy } from './php.js';
