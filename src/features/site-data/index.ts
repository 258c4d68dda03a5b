/**
 * `GET jetpack/v4/site` (docs/spec/jetpack-v4-reference.md §3.18, docs/spec/compat.md §9): the site's own record, in place of the
 * WordPress.com site object, as the reference's double-encoded `data` string. Siteward offers
 * one plan, the free one. While the site is not connected there is no site id: 404.
 */
import type { Feature } from '../contract.js';
import { successMessages } from '../jetpack-v4/errors.js';
import { siteDataError } from './errors.js';
import { JETPACK_NAMESPACE } from '../jetpack-v4/route-helpers.js';
import { defineRoute } from '../../rest/define-route.js';

/** Jetpack Free's product id on WordPress.com; the admin client compares slugs, some tools the id. */
const FREE_PRODUCT_ID = 2002;

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

export const siteDataFeature: Feature = {
  name: 'site-data',
  register(ctx) {
    const jetpack = ctx.need('jetpack');
    const connection = ctx.need('connection');
    const { config } = ctx;
    const restRoot = ctx.api.restUrl('/');
    ctx.api.registerRoute(
      JETPACK_NAMESPACE,
      '/site',
      defineRoute({
        permission: jetpack.permission('view_admin'),
        handler: async ({ request }) => {
          if (!(await connection.isConnected())) return siteDataError('site_id_missing');
          const o = await ctx.store.options.getMany(['blogname', 'blogdescription', 'timezone_string', 'WPLANG']);
          const site = {
            name: text(o.get('blogname'), config.siteName),
            description: text(o.get('blogdescription'), config.siteDescription),
            URL: config.homeUrl,
            urls: { home: config.homeUrl, rest: restRoot, admin: `${config.homeUrl}/admin/` },
            // WordPress stores an empty WPLANG for en_US.
            locale: text(o.get('WPLANG'), '') || 'en_US',
            timezone: text(o.get('timezone_string'), config.timezone),
            plan: {
              product_id: FREE_PRODUCT_ID,
              product_slug: 'jetpack_free',
              product_name_short: 'Free',
              free_trial: false,
              expired: false,
              // The connection tells no owner yet: whoever may manage the site counts as its owner.
              user_is_owner: request.user.can('manage_options'),
            },
          };
          return { code: 'success', message: successMessages.siteDataReceived, data: JSON.stringify(site) };
        },
      }),
    );
  },
};
