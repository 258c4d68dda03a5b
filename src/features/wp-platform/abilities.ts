/**
 * The users' abilities (issue 42 item 2): the list and one user, from the profiles `wp/v2/users`
 * answers with (the same loaders), for those who may list users (`list_users`). Writes to users
 * stay on `wp/v2/users`: an agent does not create administrators.
 */
import type { SitewardApi } from '../../plugins/api.js';
import { wpError } from './wp-errors.js';
import { loadAllProfiles, loadProfile, type UserProfile } from './user-records.js';
import type { Store } from '../../store/types.js';

const USER_OUTPUT = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    username: { type: 'string' },
    name: { type: 'string' },
    email: { type: 'string' },
    roles: { type: 'array', items: { type: 'string' } },
    registered_date: { type: 'string' },
  },
  required: ['id', 'username', 'name', 'email', 'roles'],
  additionalProperties: false,
} as const;

function userJson(profile: UserProfile) {
  return {
    id: profile.user.id,
    username: profile.user.login,
    name: profile.user.displayName,
    email: profile.user.email,
    roles: [...profile.roles],
    registered_date: new Date(profile.user.registered).toISOString().slice(0, 19),
  };
}

export function registerUserAbilities(api: SitewardApi, store: Store): void {
  api.registerAbilityCategory('siteward-users', { label: 'Users', description: 'The site’s user accounts and their roles.' });
  const may = (_input: unknown, caller: { user: { can(capability: string): boolean } }) => caller.user.can('list_users');

  api.registerAbility('siteward/list-users', {
    label: 'List users',
    description: 'Every user account with its login, name, e-mail address and roles (the data of GET wp/v2/users?context=edit).',
    category: 'siteward-users',
    input_schema: {
      type: 'object',
      properties: { role: { type: 'string', description: 'Only users with this role, e.g. "administrator".' } },
      additionalProperties: false,
      default: {},
    },
    output_schema: { type: 'array', items: USER_OUTPUT },
    permission: may,
    execute: async (input: { role?: string }) =>
      (await loadAllProfiles(store)).filter((p) => input.role === undefined || p.roles.includes(input.role)).map(userJson),
    meta: { annotations: { readonly: true, destructive: false, idempotent: true }, show_in_rest: true, mcp: { public: true } },
  });

  api.registerAbility('siteward/get-user', {
    label: 'Read a user',
    description: 'One user account by id (the data of GET wp/v2/users/{id}?context=edit).',
    category: 'siteward-users',
    input_schema: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'], additionalProperties: false },
    output_schema: USER_OUTPUT,
    permission: may,
    execute: async (input: { id: number }) => {
      const profile = await loadProfile(store, input.id);
      return profile ? userJson(profile) : wpError('user_invalid_id');
    },
    meta: { annotations: { readonly: true, destructive: false, idempotent: true }, show_in_rest: true, mcp: { public: true } },
  });
}
