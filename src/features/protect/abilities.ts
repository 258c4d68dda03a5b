/**
 * Protect's abilities (issue 42 item 2): the blocks, and lifting one. They run the service calls
 * of `siteward/v1/protect/blocks` with the route's permission (manage_settings): one function,
 * two doors.
 */
import type { AbilityCaller } from '../../plugins/ability-types.js';
import type { SitewardApi } from '../../plugins/api.js';
import type { PermissionCheck } from '../jetpack-v4/permissions.js';
import type { Principal } from '../../rest/types.js';
import { blockJson } from './protect-routes.js';
import type { ProtectService } from './protect-service.js';
import { abilityCallerSource } from '../audit/index.js';

const BLOCK_OUTPUT = {
  type: 'object',
  properties: {
    address: { type: 'string' },
    active: { type: 'boolean' },
    level: { type: 'integer' },
    failures: { type: 'integer' },
    usernames: { type: 'array', items: { type: 'string' } },
    blocked_at: { type: 'string' },
    blocked_until: { type: 'string' },
    lifted_at: { type: ['string', 'null'] },
  },
  required: ['address', 'active', 'blocked_until'],
} as const;

export function registerProtectAbilities(
  api: SitewardApi,
  service: ProtectService,
  allows: (check: PermissionCheck, user: Principal) => boolean,
): void {
  const may = (_input: unknown, caller: AbilityCaller) => allows('manage_settings', caller.user);
  api.registerAbilityCategory('siteward-protect', {
    label: 'Protect',
    description: 'Brute-force login protection: the addresses blocked after failed logins.',
  });

  api.registerAbility('siteward/list-blocks', {
    label: 'List login blocks',
    description: 'The addresses Protect blocked after failed logins, newest first (as GET siteward/v1/protect/blocks).',
    category: 'siteward-protect',
    input_schema: {
      type: 'object',
      properties: {
        page: { type: 'integer', minimum: 1, default: 1 },
        per_page: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        active: { type: 'boolean', default: false, description: 'Only blocks in force now.' },
      },
      additionalProperties: false,
      default: {},
    },
    output_schema: {
      type: 'object',
      properties: { total: { type: 'integer' }, blocks: { type: 'array', items: BLOCK_OUTPUT } },
      required: ['total', 'blocks'],
    },
    permission: may,
    execute: async (input: { page?: number; per_page?: number; active?: boolean }) => {
      const page = await service.blocksPage(input.page ?? 1, input.per_page ?? 20, input.active === true);
      return { total: page.total, blocks: page.items.map(blockJson) };
    },
    meta: { annotations: { readonly: true, destructive: false, idempotent: true }, show_in_rest: true, mcp: { public: true } },
  });

  api.registerAbility('siteward/unblock-address', {
    label: 'Lift a login block',
    description: 'Lets an address log in again at once (as DELETE siteward/v1/protect/blocks/{address}).',
    category: 'siteward-protect',
    input_schema: {
      type: 'object',
      properties: { address: { type: 'string', description: 'An IPv4 address, an IPv6 address or its /64.' } },
      required: ['address'],
      additionalProperties: false,
    },
    output_schema: {
      type: 'object',
      properties: { unblocked: { type: 'boolean' }, address: { type: 'string' } },
      required: ['unblocked', 'address'],
    },
    permission: may,
    execute: async (input: { address: string }, caller) => {
      const outcome = await service.unblock(input.address, `${caller.via}:${caller.user.login}`, abilityCallerSource(caller));
      return outcome.ok ? { unblocked: true, address: outcome.value.address } : outcome.error;
    },
    meta: {
      annotations: {
        readonly: false,
        destructive: true,
        idempotent: true,
        instructions: 'Lifting a block lets an attacker try again: lift only an address the administrator recognises.',
      },
      show_in_rest: true,
      mcp: { public: true },
    },
  });
}
