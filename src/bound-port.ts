import cluster from 'node:cluster';
import { createServer } from 'node:net';
import type { Config } from './config/config.js';

/** Passes the port the primary picked to the workers it forks (they inherit its environment). */
const BOUND_PORT_ENV = 'SITEWARD_BOUND_PORT';

function reservePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
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
  const port = !cluster.isPrimary && inherited > 0 ? inherited : await reservePort(config.host);
  process.env[BOUND_PORT_ENV] = String(port);
  const home = new URL(config.homeUrl);
  home.port = String(port);
  return { ...config, port, homeUrl: home.toString().replace(/\/+$/, '') };
}
