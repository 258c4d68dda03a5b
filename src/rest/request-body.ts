import { buildPhpParams, parsePhpQuery } from './php-query.js';

export interface DecodedBody {
  text: string;
  /** The decoded JSON value; undefined when the body is not JSON or is empty. */
  json: unknown;
  jsonError: boolean;
  /** Form parameters (urlencoded; multipart is decoded by the HTTP adapter into `form` beforehand). */
  form: Record<string, unknown>;
}

/** The media type of a Content-Type header: the part before `;`, trimmed and lower-cased. */
export function mediaType(contentType: string | undefined): string {
  if (!contentType) return '';
  const semi = contentType.indexOf(';');
  return (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

const EMPTY: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/**
 * Decodes the body by its Content-Type (compat.md §3): JSON only for exactly
 * `application/json` (any method; an empty body is not an error); form fields for
 * `application/x-www-form-urlencoded`, or for a body with no Content-Type at all.
 */
export async function readBody(method: string, headers: Record<string, string>, raw: Buffer | string): Promise<DecodedBody> {
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  const type = mediaType(headers['content-type']);
  if (type === 'application/json') {
    if (text.trim() === '') return { text, json: undefined, jsonError: false, form: EMPTY };
    try {
      return { text, json: JSON.parse(text), jsonError: false, form: EMPTY };
    } catch {
      return { text, json: undefined, jsonError: true, form: EMPTY };
    }
  }
  if (text !== '' && (type === 'application/x-www-form-urlencoded' || (type === '' && method !== 'POST'))) {
    return { text, json: undefined, jsonError: false, form: parsePhpQuery(text) };
  }
  if (type === 'multipart/form-data' && text !== '') {
    return { text, json: undefined, jsonError: false, form: await parseMultipart(raw, headers['content-type']!) };
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
