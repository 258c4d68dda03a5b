import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { errorResponse } from '../rest/error-response.js';
import { shuttingDown } from '../rest/errors.js';

/**
 * Graceful shutdown at the socket level. Once closing starts, responses still being prepared
 * carry `Connection: close` (the client opens its next request elsewhere instead of finding a
 * closed socket), a request that still arrives on an open connection gets a JSON 503 with
 * `Connection: close` rather than a reset, and at the deadline every remaining connection is
 * closed so that a stuck request cannot hold the process.
 */
export class ShutdownGate {
  private closing = false;
  private readonly inFlight = new Set<ServerResponse>();
  private deadline: NodeJS.Timeout | null = null;

  /** The request handler with the gate in front of it. */
  wrap(handler: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void {
    return (req, res) => {
      if (this.closing) {
        refuse(res);
        return;
      }
      this.inFlight.add(res);
      res.once('close', () => this.inFlight.delete(res));
      handler(req, res);
    };
  }

  /** Closing starts: mark in-flight responses and arm the deadline. */
  begin(server: Server, deadlineMs: number): void {
    this.closing = true;
    for (const res of this.inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
    this.deadline = setTimeout(() => server.closeAllConnections(), deadlineMs);
    this.deadline.unref();
  }

  /** The server has closed (all connections ended): the deadline is no longer needed. */
  end(): void {
    if (this.deadline) clearTimeout(this.deadline);
    this.deadline = null;
  }
}

function refuse(res: ServerResponse): void {
  const { status, headers, body } = errorResponse(shuttingDown(), { Connection: 'close' });
  res.writeHead(status, headers);
  res.end(body);
}
