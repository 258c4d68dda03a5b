import { invalidParams, isRestError, missingParams, type ParamDetail, type RestError } from './errors.js';
import { parseArg } from './args/parse.js';
import { withSink } from './deprecation.js';
import type { DispatchRequest } from './rest-request.js';
import type { Endpoint } from './route-registry.js';

/**
 * Fills defaults, checks required arguments, runs validators and sanitizes, in WordPress 4.7's
 * order (docs/spec/wp-rest-reference.md; docs/spec/site-management-api.md §4.5). All argument failures are gathered into one `rest_invalid_param`.
 * Returns null when the request may proceed; `request.params` then holds sanitized values.
 */
export function prepareArguments(
  endpoint: Endpoint,
  request: DispatchRequest,
  withDetails = false,
): RestError | null | Promise<RestError | null> {
  // Most GET endpoints declare no arguments: answer without a promise.
  return endpoint.argNames.length === 0 ? null : prepareDeclared(endpoint, request, withDetails);
}

/** One failing argument's error as WordPress 5.7+ lists it in `data.details`. */
function detailOf(error: RestError): ParamDetail {
  return { code: error.code, message: error.message, data: error.data };
}

/**
 * Speed: each validator and sanitizer runs at once, and only one that answers with a promise
 * makes the rest wait for it (an `await` per argument cost a promise and a microtask turn per
 * argument on every write, even though the callbacks are nearly always synchronous).
 */
function prepareDeclared(endpoint: Endpoint, request: DispatchRequest, withDetails: boolean): RestError | null | Promise<RestError | null> {
  const args = endpoint.args;
  const names = endpoint.argNames;

  const defaults: Record<string, unknown> = {};
  for (const name of names) {
    const def = args[name]!.default;
    if (def !== undefined && def !== null) defaults[name] = def;
  }
  request.sources.defaults = defaults;
  request.merge();
  const params = request.params;

  const has = (name: string) => Object.hasOwn(params, name) && params[name] !== undefined && params[name] !== null;
  const missing = names.filter((name) => args[name]!.required === true && !has(name));
  if (missing.length > 0) return missingParams(missing);

  const errors: Record<string, string> = {};
  // Only errors returned as values have details (a validator's `false` has none), as in WordPress.
  const details: Record<string, ParamDetail> = {};
  const validated = (name: string, result: unknown) => {
    if (result === false) errors[name] = 'Invalid parameter.';
    else if (isRestError(result)) {
      errors[name] = result.message;
      details[name] = detailOf(result);
    }
  };
  const sanitized = (name: string, result: unknown) => {
    if (isRestError(result)) {
      errors[name] = result.message;
      details[name] = detailOf(result);
    } else params[name] = result;
  };

  // Every validator runs before any sanitizer, each in the order the arguments were declared.
  const validateFrom = (start: number): RestError | null | Promise<RestError | null> => {
    for (let i = start; i < names.length; i++) {
      const name = names[i]!;
      const validate = args[name]!.validateCallback;
      if (!validate || !has(name)) continue;
      const value = params[name];
      const result = withSink(request.deprecations, () => validate(value, request, name));
      if (result instanceof Promise)
        return result.then((answer: unknown) => {
          validated(name, answer);
          return validateFrom(i + 1);
        });
      validated(name, result);
    }
    return sanitizeFrom(0);
  };

  const sanitizeFrom = (start: number): RestError | null | Promise<RestError | null> => {
    for (let i = start; i < names.length; i++) {
      const name = names[i]!;
      if (errors[name] !== undefined || !Object.prototype.hasOwnProperty.call(params, name)) continue;
      const arg = args[name]!;
      if (arg.sanitizeCallback === null) continue;
      if (arg.sanitizeCallback) {
        const sanitize = arg.sanitizeCallback;
        const result = withSink(request.deprecations, () => sanitize(params[name], request, name));
        if (result instanceof Promise)
          return result.then((answer: unknown) => {
            sanitized(name, answer);
            return sanitizeFrom(i + 1);
          });
        sanitized(name, result);
      } else if (arg.type !== undefined) {
        const parsed = parseArg(params[name], arg, name);
        if (parsed.ok) params[name] = parsed.value;
        else {
          errors[name] = parsed.error.message;
          details[name] = detailOf(parsed.error);
        }
      }
    }
    if (Object.keys(errors).length === 0) return null;
    return withDetails ? invalidParams(errors, details) : invalidParams(errors);
  };

  return validateFrom(0);
}
