/**
 * `GET /healthz` for load balancers and orchestrators: 200 when this process can reach its
 * store, 503 otherwise, in JSON. It always asks the database (one primary-key read, never from
 * a cache) so a database that is down or frozen shows here as it would on the next request.
 * `?detail=1` adds what features report (`health` service): facts for an operator's dashboard
 * that never change the status (a load balancer must not drop a host because a log receiver is down).
 */
import type { Feature } from '../contract.js';

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'no-store' };

/** Where features add a `/healthz?detail=1` member: a name and what to show (no secrets: the page is public). */
export interface HealthDetails {
  add(name: string, read: () => Promise<unknown>): void;
}

declare module '../contract.js' {
  interface FeatureServices {
    health: HealthDetails;
  }
}

export const healthFeature: Feature = {
  name: 'health',
  register(ctx) {
    const details = new Map<string, () => Promise<unknown>>();
    ctx.provide('health', { add: (name, read) => void details.set(name, read) });
    ctx.addPage({
      method: 'GET',
      path: '/healthz',
      async handle(req) {
        try {
          await ctx.store.ping();
          const body: Record<string, unknown> = { status: 'ok', store: ctx.store.backend };
          if (req.query.detail !== undefined && req.query.detail !== '0')
            for (const [name, read] of details) body[name] = await read().catch(() => ({ error: 'unavailable' }));
          return { status: 200, headers: JSON_HEADERS, body: JSON.stringify(body) };
        } catch {
          return {
            status: 503,
            headers: { ...JSON_HEADERS, 'Retry-After': '5' },
            body: JSON.stringify({ status: 'unavailable', store: ctx.store.backend }),
          };
        }
      },
    });
  },
};
