/**
 * The `unit` project opens no listening socket: a test that needs a server (the app over HTTP,
 * a fake peer) is an `*.http.test.ts` and runs in the `http` project (vitest.config.ts).
 */
import { Server } from 'node:net';

Server.prototype.listen = function listen(): never {
  throw new Error('a unit test opened a listening socket: name the file *.http.test.ts (vitest.config.ts)');
};
