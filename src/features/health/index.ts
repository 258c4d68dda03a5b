/**
 * `GET /healthz` for load balancers and orchestrators: 200 when this process can reach its
 * store, 503 otherwise, in JSON. It always asks the database (one primary-key read, never from
 * a cache) so a database that is down or frozen shows here as it would on the next request.
 */
import type { Feature } from '../contract.js';

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'no-store' };

export const healthFeature: Feature = {
  name: 'health',
  register(ctx) {
    ctx.addPage({
      method: 'GET',
      path: '/healthz',
      async handle() {
        try {
          await ctx.store.ping();
          return { status: 200, headers: JSON_HEADERS, body: JSON.stringify({ status: 'ok', store: ctx.store.backend }) };
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
