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
  // runs for every POST. Speed (issue 44): the listeners stay on the request once it is settled
  // (it is dropped with them) and ignore what comes after; removing the four cost about as much
  // as adding them.
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const settle = (error: Error | null, body: Buffer) => {
    if (settled) return;
    settled = true;
    done(error, body);
  };
  const onData = (chunk: Buffer) => {
    if (settled) return;
    size += chunk.length;
    if (size > limit) {
      // Stop reading the rest of the body. The 413 goes out with `Connection: close`, which
      // ends the connection once it is written; destroying the request here would cut it off.
      raw.pause();
      settle(new BodyTooLargeError(limit), EMPTY);
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = () => settle(null, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
  // node:http reports a connection lost mid-body as an `aborted` ECONNRESET error. An error is
  // made only while unsettled: 'close' follows every 'end', and an error's stack is costly.
  const onError = (error: NodeJS.ErrnoException) => {
    if (!settled) settle(error.code === 'ECONNRESET' ? new BodyAbortedError() : error, EMPTY);
  };
  const onClose = () => {
    if (!settled) settle(new BodyAbortedError(), EMPTY);
  };
  raw.on('data', onData);
  raw.on('end', onEnd);
  raw.on('error', onError);
  raw.on('close', onClose);
}
