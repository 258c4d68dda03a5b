import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { errorResponse } from '../rest/error-response.js';
import { shuttingDown } from '../rest/errors.js';

/** The socket's property holding the newest response handed to it (pipelined ones queued before it end as usual). */
const CURRENT = Symbol('siteward.currentResponse');
type GatedSocket = Socket & { [CURRENT]?: ServerResponse };

/** How long, at most, a closing server keeps answering requests on open connections with 503. */
export const LINGER_MS = 1000;

/**
 * Graceful shutdown at the socket level. Once closing starts, responses still being prepared
 * carry `Connection: close` (the client opens its next request elsewhere instead of finding a
 * closed socket), a request that still arrives on an open connection gets a JSON 503 with
 * `Connection: close` rather than a reset, and at the deadline every remaining connection is
 * closed so that a stuck request cannot hold the process.
 */
export class ShutdownGate {
  private closing = false;
  private deadline: NodeJS.Timeout | null = null;
  private stopped: Promise<void> | null = null;
  private readonly sockets = new Set<Socket>();

  /** The request handler with the gate in front of it. */
  wrap(handler: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void {
    return (req, res) => {
      if (this.closing) {
        refuse(res);
        return;
      }
      // Speed: the response is noted on its socket (one property store) rather than in a set
      // with a 'close' listener per response, which cost about 3 % of a small request's CPU.
      (req.socket as GatedSocket)[CURRENT] = res;
      handler(req, res);
    };
  }

  /**
   * Counts the server's open connections (call once, when the server is made). Over TLS the
   * sockets counted are the TLS ones, which requests arrive on.
   */
  watch(server: Server, tls: boolean): void {
    server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /**
   * Closing starts: stop listening, wait until no process accepts for this server any more,
   * then mark in-flight responses, and linger while connections are open (at most LINGER_MS).
   *
   * Listening stops first, so that a new connection is refused (ECONNREFUSED: nothing was sent,
   * any client may retry it) rather than accepted and then cut. Before, the server kept
   * accepting during the window and stopped at its end: connections accepted in that last
   * moment (clients reconnecting after their 503) were closed with their request unread, a
   * reset. Only the listening socket closes here (net.Server's close, not http.Server's, which
   * would also drop idle keep-alive connections, just when their clients may be sending on
   * them). Under node:cluster the socket is the primary's, shared by the workers: until every
   * stopping worker has let go of it (`listenerClosed`), requests are served as usual, because a
   * `Connection: close` would send its client to reconnect into a worker that is closing too
   * (and whose queued connections the primary then drops). After that, for the window, every
   * request on an open connection is answered 503 with `Connection: close`, and the window ends
   * early once the clients have closed.
   */
  async begin(server: Server, deadlineMs: number, listenerClosed?: () => Promise<void>): Promise<void> {
    const started = Date.now();
    await this.stopListening(server, deadlineMs, listenerClosed);
    this.closing = true;
    for (const res of this.inFlight()) if (!res.headersSent) res.setHeader('Connection', 'close');
    const until = Date.now() + Math.min(LINGER_MS, Math.max(0, started + deadlineMs - Date.now()));
    while (this.sockets.size > this.inFlight().length && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /**
   * The first step of `begin`, also called on its own before Fastify's close starts (which
   * puts `Connection: close` on the answers of its own routes at once).
   */
  stopListening(server: Server, deadlineMs: number, listenerClosed?: () => Promise<void>): Promise<void> {
    return (this.stopped ??= (async () => {
      this.deadline = setTimeout(() => server.closeAllConnections(), deadlineMs);
      this.deadline.unref();
      if (server.listening) NetServer.prototype.close.call(server);
      if (listenerClosed) await bounded(listenerClosed(), Math.min(LINGER_MS, deadlineMs));
    })());
  }

  /** The responses not yet ended: the last one handed to each open connection, while it is being prepared. */
  private inFlight(): ServerResponse[] {
    const open: ServerResponse[] = [];
    for (const socket of this.sockets) {
      const res = (socket as GatedSocket)[CURRENT];
      if (res !== undefined && !res.writableEnded) open.push(res);
    }
    return open;
  }

  /** The server has closed (all connections ended): the deadline is no longer needed. */
  end(): void {
    if (this.deadline) clearTimeout(this.deadline);
    this.deadline = null;
  }
}

/** Waits for `promise`, at most `ms`. */
async function bounded(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function refuse(res: ServerResponse): void {
  const { status, headers, body } = errorResponse(shuttingDown(), { Connection: 'close' });
  res.writeHead(status, headers);
  res.end(body);
}
