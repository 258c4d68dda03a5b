/**
 * WordPress's core abilities and their categories (wp-includes/abilities.php, 6.9): `core/get-site-info`,
 * `core/get-user-info`, `core/get-environment-info`, with WordPress's schemas, annotations and
 * permissions. Where a field names PHP or WordPress, Siteward says what it runs instead (Node.js,
 * Siteward's version) rather than claim to be what it is not.
 */
import { SITEWARD_VERSION } from '../../core/version.js';
import type { Store } from '../../store/types.js';
import type { AbilityRegistry } from './registry.js';

const READONLY = { readonly: true, destructive: false, idempotent: true } as const;

const SITE_FIELDS = {
  name: { type: 'string', description: 'The site title.' },
  description: { type: 'string', description: 'The site tagline.' },
  url: { type: 'string', description: 'The site home URL.' },
  wpurl: { type: 'string', description: 'The WordPress installation URL.' },
  admin_email: { type: 'string', description: 'The site administrator email address.' },
  charset: { type: 'string', description: 'The site character encoding.' },
  language: { type: 'string', description: 'The site language locale code.' },
  version: { type: 'string', description: 'The WordPress version.' },
} as const;
type SiteField = keyof typeof SITE_FIELDS;
const FIELD_NAMES = Object.keys(SITE_FIELDS) as SiteField[];

export interface CoreAbilityDeps {
  readonly store: Store;
  readonly homeUrl: string;
  readonly siteName: string;
  readonly siteDescription: string;
  readonly development: () => boolean;
}

/** The site's `WPLANG` as `get_bloginfo('language')` gives it: `en-US` for an empty one. */
async function siteLocale(store: Store): Promise<string> {
  const lang = await store.options.get('WPLANG');
  return typeof lang === 'string' && lang !== '' ? lang : 'en_US';
}

async function siteInfo(deps: CoreAbilityDeps): Promise<Record<SiteField, string>> {
  const o = await deps.store.options.getMany(['blogname', 'blogdescription', 'admin_email']);
  const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
  return {
    name: text(o.get('blogname'), deps.siteName),
    description: text(o.get('blogdescription'), deps.siteDescription),
    url: deps.homeUrl,
    wpurl: deps.homeUrl,
    admin_email: text(o.get('admin_email'), ''),
    charset: 'UTF-8',
    language: (await siteLocale(deps.store)).replace('_', '-'),
    version: SITEWARD_VERSION,
  };
}

export function registerCoreAbilities(registry: AbilityRegistry, deps: CoreAbilityDeps): void {
  registry.registerCategory('site', { label: 'Site', description: 'Abilities that retrieve or modify site information and settings.' });
  registry.registerCategory('user', { label: 'User', description: 'Abilities that retrieve or modify user information and settings.' });

  registry.register('core/get-site-info', {
    label: 'Get Site Information',
    description: 'Returns site information configured in WordPress. By default returns all fields, or optionally a filtered subset.',
    category: 'site',
    input_schema: {
      type: 'object',
      properties: {
        fields: {
          type: 'array',
          items: { type: 'string', enum: FIELD_NAMES },
          description: 'Optional: Limit response to specific fields. If omitted, all fields are returned.',
        },
      },
      additionalProperties: false,
      default: [],
    },
    output_schema: { type: 'object', properties: SITE_FIELDS, additionalProperties: false },
    permission: (_input, caller) => caller.user.can('manage_options'),
    execute: async (input: { fields?: SiteField[] } | null) => {
      const all = await siteInfo(deps);
      const wanted = input && Array.isArray(input.fields) && input.fields.length > 0 ? input.fields : FIELD_NAMES;
      return Object.fromEntries(wanted.map((field) => [field, all[field]]));
    },
    meta: { annotations: READONLY, show_in_rest: true },
  });

  registry.register('core/get-user-info', {
    label: 'Get User Information',
    description:
      'Returns basic profile details for the current authenticated user to support personalization, auditing, and access-aware behavior.',
    category: 'user',
    output_schema: {
      type: 'object',
      required: ['id', 'display_name', 'user_nicename', 'user_login', 'roles', 'locale'],
      properties: {
        id: { type: 'integer', description: 'The user ID.' },
        display_name: { type: 'string', description: 'The display name of the user.' },
        user_nicename: { type: 'string', description: 'The URL-friendly name for the user.' },
        user_login: { type: 'string', description: 'The login username for the user.' },
        roles: { type: 'array', description: 'The roles assigned to the user.', items: { type: 'string' } },
        locale: { type: 'string', description: 'The locale string for the user, such as en_US.' },
      },
      additionalProperties: false,
    },
    permission: (_input, caller) => caller.user.id !== 0,
    execute: async (_input, { user }) => ({
      id: user.id,
      display_name: user.displayName,
      // WordPress's user_nicename: the login as a URL slug.
      user_nicename: user.login.toLowerCase().replace(/[^a-z0-9_-]+/g, '-'),
      user_login: user.login,
      roles: [...user.roles],
      locale: await siteLocale(deps.store),
    }),
    meta: { annotations: READONLY, show_in_rest: false },
  });

  registry.register('core/get-environment-info', {
    label: 'Get Environment Info',
    description:
      "Returns core details about the site's runtime context for diagnostics and compatibility (environment, PHP runtime, database server info, WordPress version).",
    category: 'site',
    output_schema: {
      type: 'object',
      required: ['environment', 'php_version', 'db_server_info', 'wp_version'],
      properties: {
        environment: {
          type: 'string',
          description: "The site's runtime environment classification (can be one of these: production, staging, development, local).",
          enum: ['production', 'staging', 'development', 'local'],
        },
        php_version: { type: 'string', description: 'The PHP runtime version executing WordPress.' },
        db_server_info: { type: 'string', description: 'The database server vendor and version string reported by the driver.' },
        wp_version: { type: 'string', description: 'The WordPress core version running on this site.' },
      },
      additionalProperties: false,
    },
    permission: (_input, caller) => caller.user.can('manage_options'),
    // Siteward runs on Node.js, not PHP, and is not WordPress: the fields say so.
    execute: () => ({
      environment: deps.development() ? 'development' : 'production',
      php_version: `Node.js ${process.versions.node}`,
      db_server_info: deps.store.backend === 'postgres' ? 'PostgreSQL' : 'SQLite',
      wp_version: `Siteward ${SITEWARD_VERSION}`,
    }),
    meta: { annotations: READONLY, show_in_rest: true },
  });
}
