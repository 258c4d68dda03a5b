import cluster from 'node:cluster';
import { createServer } from 'node:net';
import { ConfigError, type Config } from './config/config.js';

/** Passes the port the primary picked to the workers it forks (they inherit its environment). */
const BOUND_PORT_ENV = 'SITEWARD_BOUND_PORT';

/**
 * Binds host:port for a moment and returns the port bound. Failures are one line naming the
 * setting and what to do (a busy port, a privileged one, a HOST that is not this machine's).
 */
function probe(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(
          new ConfigError(
            `Port ${port} is already in use on ${host} (another Siteward or another server?): stop it, or choose another port with PORT or --port.`,
          ),
        );
      else if (error.code === 'EACCES')
        reject(
          new ConfigError(
            `Port ${port} needs privileges on this system: choose a port above 1023 with PORT or --port, or run behind a proxy.`,
          ),
        );
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN')
        reject(
          new ConfigError(
            `HOST (config "host") ${host} is not an address of this machine; use one of its addresses, 127.0.0.1 or 0.0.0.0.`,
          ),
        );
      else reject(error);
    });
    server.listen(port, host, () => {
      const bound = (server.address() as { port: number }).port;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * `PORT=0` asks for any free port, but the home URL derived from it (when none is configured)
 * would say `:0` in every generated URL: the start-up banner, `Link`, the index's `url`/`home`,
 * the login answer's `restRoot`, the admin page. So the primary picks the port before anything
 * is built and every process uses it. A configured home URL is left as it is.
 */
export async function withBoundPort(config: Config): Promise<Config> {
  if (config.port !== 0 || new URL(config.homeUrl).port !== '0') return config;
  const inherited = Number(process.env[BOUND_PORT_ENV]);
  const port = !cluster.isPrimary && inherited > 0 ? inherited : await probe(config.host, 0);
  process.env[BOUND_PORT_ENV] = String(port);
  const home = new URL(config.homeUrl);
  home.port = String(port);
  return { ...config, port, homeUrl: home.toString().replace(/\/+$/, '') };
}

/**
 * Fails start-up with one line when the port cannot be bound (taken, or privileged), before any
 * worker is forked: otherwise each worker would print a listen stack and the primary another line.
 */
export async function ensurePortAvailable(config: Config): Promise<void> {
  if (config.port !== 0) await probe(config.host, config.port);
}
