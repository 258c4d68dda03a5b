/**
 * Monitor's abilities (issue 42 item 2): the checks' status and the site's history. They run what
 * `siteward/v1/monitor` and `siteward/v1/monitor/history` run, with the same permissions and the
 * history's "module active" guard: one function, two doors.
 */
import type { AbilityCaller } from '../../plugins/ability-types.js';
import type { SitewardApi } from '../../plugins/api.js';
import type { Principal } from '../../rest/types.js';
import type { PermissionCheck } from '../jetpack-v4/permissions.js';
import { pluginError } from '../jetpack-v4/errors.js';
import type { MonitorService } from './monitor-service.js';

export function registerMonitorAbilities(
  api: SitewardApi,
  service: MonitorService,
  allows: (check: PermissionCheck, user: Principal) => boolean,
  isActive: () => Promise<boolean>,
): void {
  const may = (check: PermissionCheck) => (_input: unknown, caller: AbilityCaller) => allows(check, caller.user);
  api.registerAbilityCategory('siteward-monitor', { label: 'Monitor', description: 'Uptime checks of the site and their history.' });

  api.registerAbility('siteward/monitor-status', {
    label: 'Uptime status',
    description:
      'Whether Monitor is on, each check (URL, whether it is up, last check, response time), the current maintenance window and who is notified (as GET siteward/v1/monitor).',
    category: 'siteward-monitor',
    output_schema: {
      type: 'object',
      properties: {
        active: { type: 'boolean' },
        now: { type: 'string' },
        timeZone: { type: 'string' },
        checks: { type: 'array', items: { type: 'object' } },
        maintenance: { type: 'object' },
        notifications: { type: 'object' },
        administrators: { type: 'array', items: { type: 'object' } },
      },
      required: ['active', 'now', 'checks'],
    },
    permission: may('manage_settings'),
    execute: () => service.overview(),
    meta: { annotations: { readonly: true, destructive: false, idempotent: true }, show_in_rest: true, mcp: { public: true } },
  });

  api.registerAbility('siteward/monitor-history', {
    label: 'Uptime history',
    description: 'The site’s uptime day by day, with its downtimes (as GET siteward/v1/monitor/history?days=N). Monitor must be on.',
    category: 'siteward-monitor',
    input_schema: {
      type: 'object',
      properties: { days: { type: 'integer', minimum: 1, maximum: 365, default: 30, description: 'How many days back, today included.' } },
      additionalProperties: false,
      default: {},
    },
    output_schema: { type: 'object' },
    permission: may('view_admin'),
    execute: async (input: { days?: number }) => ((await isActive()) ? service.glance(input.days ?? 30) : pluginError('module_not_active')),
    meta: { annotations: { readonly: true, destructive: false, idempotent: true }, show_in_rest: true, mcp: { public: true } },
  });
}
