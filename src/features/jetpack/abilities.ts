/**
 * The site-management plugin's abilities (issue 42 item 2): modules (list, activate, deactivate)
 * and settings (read, update). Each runs the operation its `jetpack/v4` route runs, with the
 * route's permission check: one function, two doors.
 */
import type { AbilitySchema } from '../../plugins/ability-types.js';
import type { SitewardApi } from '../../plugins/api.js';
import type { Principal } from '../../rest/types.js';
import { passes, type PermissionCheck } from '../jetpack-v4/permissions.js';
import type { ModuleCatalog } from './catalog/module-catalog.js';
import type { PluginContext } from './context.js';
import { activateModule, deactivateModule } from './operations/module-activation.js';
import { listModules } from './operations/module-records.js';
import { readSettingsObject, writeSettingsObject } from './operations/settings-object.js';

const SLUG_INPUT: AbilitySchema = {
  type: 'object',
  properties: { slug: { type: 'string', description: 'The module’s slug, e.g. "protect" or "monitor" (see siteward/list-modules).' } },
  required: ['slug'],
  additionalProperties: false,
};
const SUCCESS_OUTPUT: AbilitySchema = {
  type: 'object',
  properties: { code: { type: 'string', enum: ['success'] }, message: { type: 'string' } },
  required: ['code', 'message'],
};

/** siteward/list-modules' answer for each module list listModules gave (frozen, cached per user there). */
const listAnswers = new WeakMap<object, readonly Readonly<Record<string, unknown>>[]>();

export function registerPluginAbilities(api: SitewardApi, ctx: PluginContext, catalog: ModuleCatalog): void {
  const may = (check: PermissionCheck) => (_input: unknown, caller: { user: Principal }) => passes(check, caller.user, ctx);

  api.registerAbilityCategory('siteward-modules', {
    label: 'Modules',
    description: 'The features (modules) of the site-management plugin: which exist, which are on.',
  });
  api.registerAbilityCategory('siteward-settings', {
    label: 'Settings',
    description: 'The site-management plugin’s settings, every module’s options included.',
  });

  api.registerAbility('siteward/list-modules', {
    label: 'List modules',
    description: 'Lists every module with whether it is active and available (and why not), as GET jetpack/v4/module/all.',
    category: 'siteward-modules',
    output_schema: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          module: { type: 'string' },
          name: { type: 'string' },
          description: { type: 'string' },
          activated: { type: 'boolean' },
          available: { type: 'boolean' },
          requires_connection: { type: 'boolean' },
          unavailable_reason: { type: ['string', 'null'] },
        },
        required: ['module', 'name', 'activated', 'available'],
        additionalProperties: false,
      },
    },
    permission: may('view_admin'),
    execute: async (_input, caller) => {
      // Speed: the same frozen answer while the module list (cached per user) is the same, so the
      // registry checks it against the output schema once and the REST layer encodes it once.
      const list = await listModules(ctx, catalog, caller.user);
      let answer = listAnswers.get(list);
      if (answer === undefined) {
        answer = Object.freeze(
          Object.values(list).map((record) =>
            Object.freeze({
              module: record.module,
              name: record.name,
              description: record.short_description,
              activated: record.activated,
              available: record.available,
              requires_connection: record.requires_connection,
              unavailable_reason: record.unavailable_reason?.message ?? null,
            }),
          ),
        );
        listAnswers.set(list, answer);
      }
      return answer;
    },
    meta: {
      annotations: {
        readonly: true,
        destructive: false,
        idempotent: true,
        instructions: 'Call first: other module abilities take a slug from here.',
      },
      show_in_rest: true,
      mcp: { public: true },
    },
  });

  api.registerAbility('siteward/activate-module', {
    label: 'Activate a module',
    description: 'Turns a module on (POST jetpack/v4/module/{slug}/active). Already active counts as success.',
    category: 'siteward-modules',
    input_schema: SLUG_INPUT,
    output_schema: SUCCESS_OUTPUT,
    permission: may('manage_modules'),
    execute: (input: { slug: string }) => activateModule(ctx, catalog, input.slug),
    meta: {
      annotations: {
        readonly: false,
        destructive: false,
        idempotent: true,
        instructions: 'Check available in siteward/list-modules first.',
      },
      show_in_rest: true,
      mcp: { public: true },
    },
  });

  api.registerAbility('siteward/deactivate-module', {
    label: 'Deactivate a module',
    description: 'Turns a module off (POST jetpack/v4/module/{slug}/active with active false); its protection or service stops.',
    category: 'siteward-modules',
    input_schema: SLUG_INPUT,
    output_schema: SUCCESS_OUTPUT,
    permission: may('manage_modules'),
    execute: (input: { slug: string }) => deactivateModule(ctx, catalog, input.slug),
    meta: {
      annotations: {
        readonly: false,
        destructive: true,
        idempotent: true,
        instructions: 'Switching off protect or monitor removes a protection: confirm with the administrator first.',
      },
      show_in_rest: true,
      mcp: { public: true },
    },
  });

  api.registerAbility('siteward/get-settings', {
    label: 'Read settings',
    description: 'Every setting of the plugin and its modules with its current value, as GET jetpack/v4/settings (today’s shape).',
    category: 'siteward-settings',
    output_schema: { type: 'object' },
    permission: may('view_admin'),
    execute: (_input, caller) => readSettingsObject(ctx, catalog, caller.user),
    meta: { annotations: { readonly: true, destructive: false, idempotent: true }, show_in_rest: true, mcp: { public: true } },
  });

  api.registerAbility('siteward/update-settings', {
    label: 'Change settings',
    description:
      'Changes settings, as POST jetpack/v4/settings: `settings` maps setting names (from siteward/get-settings) to new values; a module name with true/false turns it on or off. All are checked before any is written.',
    category: 'siteward-settings',
    input_schema: {
      type: 'object',
      properties: { settings: { type: 'object', description: 'Setting name → new value.' } },
      required: ['settings'],
      additionalProperties: false,
    },
    output_schema: SUCCESS_OUTPUT,
    permission: may('configure_modules'),
    execute: (input: { settings: Record<string, unknown> }, caller) => writeSettingsObject(ctx, catalog, input.settings, caller.user),
    meta: {
      annotations: {
        readonly: false,
        destructive: true,
        idempotent: true,
        instructions: 'Read the current values first; change only what was asked.',
      },
      show_in_rest: true,
      mcp: { public: true },
    },
  });
}
