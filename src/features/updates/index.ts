/**
 * Plugin updates (docs/spec/compat.md §9): `GET jetpack/v4/updates/plugins` counts the loaded plugins
 * that are published npm packages with a newer `latest` on the registry (`SITEWARD_NPM_REGISTRY`).
 */
import type { Feature } from '../contract.js';
import { updatesError } from './errors.js';
import { pluginUpdatesAnswer } from './plugin-updates.js';
import { RegistryClient } from './registry-client.js';
import { updatesSettings } from './settings.js';
import { JETPACK_NAMESPACE } from '../jetpack-v4/route-helpers.js';
import { defineRoute } from '../../rest/define-route.js';
import { abilityCallerSource, RequestSources, type AuditSource } from '../audit/index.js';
import { recordSeen } from './updates-seen.js';

export interface UpdatesFeatureOptions {
  /** Per registry request. Default 5 s; tests shorten it. */
  readonly timeoutMs?: number;
}

export function createUpdatesFeature(options: UpdatesFeatureOptions = {}): Feature {
  return {
    name: 'updates',
    settings: updatesSettings,
    register(ctx) {
      const jetpack = ctx.need('jetpack');
      const sources = new RequestSources(ctx.store.appPasswords, ctx.clock);
      const registry = new RegistryClient({ baseUrl: ctx.config.npmRegistry, clock: ctx.clock, timeoutMs: options.timeoutMs });
      // One function, two doors: the route and the `siteward/check-updates` ability.
      const check = async (source: AuditSource) => {
        const answer = await pluginUpdatesAnswer(ctx.config.plugins, ctx.cwd, registry);
        await recordSeen(ctx.store, source, answer.details).catch((error: unknown) =>
          ctx.log.warn({ err: error }, 'could not record the plugin updates seen in the audit log'),
        );
        const problems = answer.details.filter((detail) => detail.problem !== undefined);
        if (problems.length > 0)
          ctx.log.warn({ registry: ctx.config.npmRegistry, problems }, 'some plugins could not be checked for updates');
        return answer.ok ? answer.body : updatesError('updates_check_failed');
      };
      ctx.api.registerRoute(
        JETPACK_NAMESPACE,
        '/updates/plugins',
        defineRoute({ permission: jetpack.permission('view_admin'), handler: async ({ request }) => check(await sources.of(request)) }),
      );
      ctx.api.registerAbilityCategory('siteward-updates', { label: 'Updates', description: 'Newer versions of the site’s plugins.' });
      ctx.api.registerAbility('siteward/check-updates', {
        label: 'Check plugin updates',
        description:
          'Asks the npm registry which loaded plugins have a newer version (as GET jetpack/v4/updates/plugins): how many, and which.',
        category: 'siteward-updates',
        output_schema: { type: 'object' },
        permission: (_input, caller) => jetpack.allows('view_admin', caller.user),
        execute: (_input, caller) => check(abilityCallerSource(caller)),
        meta: { annotations: { readonly: true, destructive: false, idempotent: true }, show_in_rest: true, mcp: { public: true } },
      });
    },
  };
}

export const updatesFeature = createUpdatesFeature();
