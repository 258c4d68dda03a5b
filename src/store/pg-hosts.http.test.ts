import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { findHost, parsePgTarget } from './pg-hosts.js';

describe.skipIf(!process.env.SITEWARD_TEST_PG)(
  'choosing among several PostgreSQL hosts, with the test PostgreSQL (SITEWARD_TEST_PG)',
  () => {
    const sockets: Socket[] = [];
    let silent: Server;
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent?.close(resolve));
    });

    it('gives up on a first host that accepts and never answers after the connect timeout, and takes the next', async () => {
      // A machine that died without closing its sockets: the connection opens, nothing comes back.
      silent = createServer((socket) => void sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const deadPort = (silent.address() as { port: number }).port;
      const real = new URL(process.env.SITEWARD_TEST_PG!);
      const url = `postgres://${real.username}@127.0.0.1:${deadPort},${real.hostname}:${real.port || 5432}${real.pathname}?target_session_attrs=read-write`;
      const target = parsePgTarget(url, {});
      const chosen = await findHost(target, (host) => ({ connectionString: target.urlFor(host) }), 300);
      expect(chosen).toEqual({ host: real.hostname, port: Number(real.port || 5432) });
    });
  },
);
