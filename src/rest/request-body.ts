import { checkJsonBounds } from './json-bounds.js';
import { buildPhpParams, parsePhpQuery } from './php-query.js';

export interface DecodedBody {
  text: string;
  /** The decoded JSON value; undefined when the body is not JSON or is empty. */
  json: unknown;
  /** Why a JSON body was refused, or false. */
  jsonError: false | 'syntax' | 'depth' | 'values';
  /** Form parameters (urlencoded; multipart is decoded by the HTTP adapter into `form` beforehand). */
  form: Record<string, unknown>;
}

/** The media type of a Content-Type header: the part before `;`, trimmed and lower-cased. */
export function mediaType(contentType: string | undefined): string {
  if (!contentType) return '';
  const semi = contentType.indexOf(';');
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

/** One frozen empty form for every body-less request (no allocation per request). */
const EMPTY: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/**
 * Decodes the body by its Content-Type (docs/spec/compat.md §3): JSON only for exactly
 * `application/json` (any method; an empty body is not an error); form fields for
 * `application/x-www-form-urlencoded`, or for a body with no Content-Type at all.
 */
export function readBody(
  method: string,
  headers: Readonly<Record<string, string>>,
  raw: Buffer | string,
): DecodedBody | Promise<DecodedBody> {
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  const type = mediaType(headers['content-type']);
  if (type === 'application/json') {
    // Only a truly empty body is no error (WordPress 4.7.1); whitespace alone does not parse.
    if (text === '') return { text, json: undefined, jsonError: false, form: EMPTY };
    // Bounded before parsing: PHP's json_decode refuses nesting deeper than 512 (deeper values
    // could not be encoded back without exhausting the stack), and a huge count of tiny values
    // would block the event loop and the memory while being parsed.
    const bounds = checkJsonBounds(text);
    if (bounds !== 'ok') return { text, json: undefined, jsonError: bounds, form: EMPTY };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { text, json: undefined, jsonError: 'syntax', form: EMPTY };
    }
    return { text, json, jsonError: false, form: EMPTY };
  }
  if (text !== '' && (type === 'application/x-www-form-urlencoded' || (type === '' && method !== 'POST'))) {
    return { text, json: undefined, jsonError: false, form: parsePhpQuery(text) };
  }
  if (type === 'multipart/form-data' && text !== '') {
    // Only multipart needs to wait (the platform's form-data parser is asynchronous).
    return parseMultipart(raw, headers['content-type']!).then((form) => ({ text, json: undefined, jsonError: false as const, form }));
  }
  return { text, json: undefined, jsonError: false, form: EMPTY };
}

/** Multipart form fields (files are ignored: no endpoint takes uploads), PHP-style keys. */
async function parseMultipart(raw: Buffer | string, contentType: string): Promise<Record<string, unknown>> {
  try {
    const data = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
    const pairs: [string, string][] = [];
    data.forEach((value, key) => {
      if (typeof value === 'string') pairs.push([key, value]);
    });
    return buildPhpParams(pairs);
  } catch {
    return EMPTY;
  }
}
