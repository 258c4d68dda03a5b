import type { IncomingMessage } from 'node:http';

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
export async function readRawBody(raw: IncomingMessage, limit: number): Promise<Buffer> {
  if (raw.readableEnded || (raw.headers['content-length'] === undefined && raw.headers['transfer-encoding'] === undefined)) {
    return Buffer.alloc(0);
  }
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit);
  // Plain stream events: `for await` over the request cost several promises per body, and this
  // runs for every POST.
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('error', onError);
      raw.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        done();
        // Stop reading the rest of the body. The 413 goes out with `Connection: close`, which
        // ends the connection once it is written; destroying the request here would cut it off.
        raw.pause();
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: NodeJS.ErrnoException) => {
      done();
      // node:http reports a connection lost mid-body as an `aborted` ECONNRESET error.
      reject(error.code === 'ECONNRESET' ? new BodyAbortedError() : error);
    };
    const onClose = () => {
      done();
      reject(new BodyAbortedError());
    };
    raw.on('data', onData);
    raw.on('end', onEnd);
    raw.on('error', onError);
    raw.on('close', onClose);
  });
}
