import type { IncomingMessage } from 'node:http';

/** A body larger than the configured limit. */
export class BodyTooLargeError extends Error {
  readonly statusCode = 413;
  constructor(limit: number) {
    super(`The request body is larger than ${limit} bytes.`);
  }
}

/**
 * Reads a body Fastify left unread (it parses none for GET, HEAD or OPTIONS): WordPress reads
 * JSON bodies on every method, so the REST layer must see them too.
 */
export async function readRawBody(raw: IncomingMessage, limit: number): Promise<Buffer> {
  if (raw.readableEnded || (raw.headers['content-length'] === undefined && raw.headers['transfer-encoding'] === undefined)) {
    return Buffer.alloc(0);
  }
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of raw) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) throw new BodyTooLargeError(limit);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}
