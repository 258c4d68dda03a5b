// A complete feature: one REST route, one page and one background job.
// In the repository it would live in src/features/hello/index.ts (importing '../contract.js')
// and be added to the list in src/features/index.ts.
import { htmlPage, type Feature } from '../../src/features/contract.js';
import { defineRoute, permission } from '../../src/rest/define-route.js';

export const helloFeature: Feature = {
  name: 'hello',
  register(ctx) {
    let ticks = 0;

    // A REST route, through the same plugin API third-party plugins use, declared with
    // defineRoute (see "Declaring a route"): its permission check has a name.
    ctx.api.registerRoute(
      'hello/v1',
      '/greeting',
      defineRoute({
        permission: permission('manage_options', (request) => request.user.can('manage_options')),
        handler: () => ({ hello: ctx.config.siteName, ticks }),
      }),
    );

    // A page outside the REST API.
    ctx.addPage({
      method: 'GET',
      path: '/hello',
      handle: async (request) => {
        const identity = await request.identity();
        const who = identity.kind === 'cookie' ? identity.principal.login : 'stranger';
        return htmlPage(200, `<p>Hello, ${who === 'stranger' ? who : 'friend'}.</p>`);
      },
    });

    // A job, run every minute on exactly one of the processes sharing the store.
    ctx.addJob({ name: 'hello-tick', everyMs: 60_000, run: async () => void ticks++ });
  },
};
