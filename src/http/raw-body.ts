import type { IncomingMessage } from 'node:http';

/** What a failed read hands over with its error. */
const EMPTY = Buffer.alloc(0);

/** A body larger than the configured limit. */
export class BodyTooLargeError extends Error {
  readonly statusCode = 413;
  constructor(limit: number) {
    super(`The request body is larger than ${limit} bytes.`);
  }
}

/** The client closed the connection before its body was complete (an aborted upload): not a server error. */
export class BodyAbortedError extends Error {
  constructor() {
    super('The request was closed before its body was complete.');
  }
}

/**
 * Reads a body Fastify left unread (it parses none for GET, HEAD or OPTIONS): WordPress reads
 * JSON bodies on every method, so the REST layer must see them too.
 */
export function readRawBody(raw: IncomingMessage, limit: number): Promise<Buffer> {
  if (raw.readableEnded || (raw.headers['content-length'] === undefined && raw.headers['transfer-encoding'] === undefined)) {
    return Promise.resolve(Buffer.alloc(0));
  }
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError(limit));
  // Not an async function: its promise would wrap this one, two more microtask turns per body.
  return new Promise<Buffer>((resolve, reject) => streamRawBody(raw, limit, (error, body) => (error ? reject(error) : resolve(body))));
}

/**
 * Reads the body of a request that has one (its declared length, if any, already checked
 * against `limit`), with a callback: the path that answers a repeat uses it directly, without a
 * promise or a microtask turn per body. `done` is called once, with the body or with a
 * BodyTooLargeError, a BodyAbortedError or the stream's error.
 */
export function streamRawBody(raw: IncomingMessage, limit: number, done: (error: Error | null, body: Buffer) => void): void {
  if (raw.readableEnded) {
    done(null, EMPTY);
    return;
  }
  // Plain stream events: `for await` over the request cost several promises per body, and this
  // runs for every POST.
  const chunks: Buffer[] = [];
  let size = 0;
  const stop = () => {
    raw.off('data', onData);
    raw.off('end', onEnd);
    raw.off('error', onError);
    raw.off('close', onClose);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      stop();
      // Stop reading the rest of the body. The 413 goes out with `Connection: close`, which
      // ends the connection once it is written; destroying the request here would cut it off.
      raw.pause();
      done(new BodyTooLargeError(limit), EMPTY);
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = () => {
    stop();
    done(null, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
  };
  const onError = (error: NodeJS.ErrnoException) => {
    stop();
    // node:http reports a connection lost mid-body as an `aborted` ECONNRESET error.
    done(error.code === 'ECONNRESET' ? new BodyAbortedError() : error, EMPTY);
  };
  const onClose = () => {
    stop();
    done(new BodyAbortedError(), EMPTY);
  };
  raw.on('data', onData);
  raw.on('end', onEnd);
  raw.on('error', onError);
  raw.on('close', onClose);
}
