/**
 * `wp/v2/settings` (WordPress's `WP_REST_Settings_Controller`, docs/spec/current-clients.md §D):
 * the site settings Siteward keeps, with WordPress's keys, types and options, under
 * `manage_options`. They are the options the index document, the admin page's initial state and
 * `jetpack/v4/site` read, so a change shows there at once. Siteward has no posts, so none of
 * WordPress's content settings (posts per page, default category, comment status…) are offered.
 */
import type { JsonValue } from '../../core/json.js';
import { isTimeZone } from '../../core/time-zone.js';
import { sanitizeValue, validateValue } from '../../rest/args/index.js';
import { invalidParams, type RestError } from '../../rest/errors.js';
import type { ArgDefinition, ArgSchema, RestRequest } from '../../rest/types.js';
import type { FeatureContext } from '../contract.js';
import { audited, RequestSources } from '../audit/index.js';
import type { Store } from '../../store/index.js';
import { Type } from '@sinclair/typebox';
import { answers, defineRoute, permission } from '../../rest/define-route.js';

/** The first administrator's address per store, with the credentials version it was read at. */
const administratorEmails = new WeakMap<Store, { readonly version: number; readonly email: string }>();

/**
 * The first administrator's e-mail address ('' when there is none). Finding it reads every user
 * and their roles, so it is kept until the credentials version moves: every change to a user,
 * their e-mail or their roles bumps it (src/store/users-repo.ts). Without this, every read of
 * the settings of a site without `admin_email` did it (issue 26: 203 µs a request with one user).
 */
async function firstAdministratorEmail(store: Store): Promise<string> {
  const version = store.sessions.knownCredentialsVersion?.() ?? (await store.sessions.credentialsVersion());
  const known = administratorEmails.get(store);
  if (known?.version === version) return known.email;
  let email = '';
  for (const user of await store.users.list()) {
    if ((await store.users.roles(user.id)).includes('administrator')) {
      email = user.email;
      break;
    }
  }
  administratorEmails.set(store, { version, email });
  return email;
}

interface Setting {
  /** The option it is stored in (WordPress's name). */
  readonly option: string;
  readonly schema: ArgSchema & { readonly type: 'string' | 'integer' };
  readonly title: string;
  /** The value when the option is unset. */
  readonly fallback: (ctx: FeatureContext) => JsonValue | Promise<JsonValue>;
  /** A check beyond the type, with the message of the refusal. */
  readonly check?: (value: unknown, ctx: FeatureContext) => string | null;
}

/** An IANA time zone, or '' (WordPress's "none set": a UTC offset is used instead). */
function isTimeZoneOption(value: unknown): boolean {
  return typeof value === 'string' && (value === '' || isTimeZone(value));
}

/** Refusal messages of Siteward's own checks (WordPress sanitizes these silently back to the old value). */
const messages = {
  timezone: 'timezone is not a valid time zone name (e.g. Europe/Paris, or empty for UTC).',
  language: 'language is not a locale code (e.g. en_US).',
  startOfWeek: 'start_of_week must be between 0 (inclusive) and 6 (inclusive)',
  url: 'url is the SITEWARD_HOME_URL setting of the server and cannot be changed here.',
} as const;

/** REST key → setting, in WordPress's order (docs/spec/current-clients.md §D.2). */
const SETTINGS: Readonly<Record<string, Setting>> = {
  title: {
    option: 'blogname',
    title: 'Title',
    schema: { type: 'string', description: 'Site title.' },
    fallback: (ctx) => ctx.config.siteName,
  },
  description: {
    option: 'blogdescription',
    title: 'Tagline',
    schema: { type: 'string', description: 'Site tagline.' },
    fallback: (ctx) => ctx.config.siteDescription,
  },
  url: {
    option: 'siteurl',
    title: '',
    schema: { type: 'string', format: 'uri', description: 'Site URL.' },
    fallback: (ctx) => ctx.site.homeUrl,
    // The address comes from the server's configuration; saving the same value back is fine.
    check: (v, ctx) => (v === ctx.site.homeUrl ? null : messages.url),
  },
  email: {
    option: 'admin_email',
    title: '',
    schema: { type: 'string', format: 'email', description: 'This address is used for admin purposes, like new user notification.' },
    // Until one is set, the first administrator's address (WordPress sets it at installation).
    fallback: (ctx) => firstAdministratorEmail(ctx.store),
  },
  timezone: {
    option: 'timezone_string',
    title: '',
    schema: { type: 'string', description: 'A city in the same timezone as you.' },
    fallback: (ctx) => ctx.config.timezone,
    check: (v) => (isTimeZoneOption(v) ? null : messages.timezone),
  },
  date_format: {
    option: 'date_format',
    title: '',
    schema: { type: 'string', description: 'A date format for all date strings.' },
    fallback: () => 'F j, Y',
  },
  time_format: {
    option: 'time_format',
    title: '',
    schema: { type: 'string', description: 'A time format for all time strings.' },
    fallback: () => 'g:i a',
  },
  start_of_week: {
    option: 'start_of_week',
    title: '',
    schema: { type: 'integer', description: 'A day number of the week that the week should start on.' },
    fallback: () => 1,
    check: (v) => (Number(v) >= 0 && Number(v) <= 6 ? null : messages.startOfWeek),
  },
  language: {
    option: 'WPLANG',
    title: '',
    schema: { type: 'string', description: 'WordPress locale code.' },
    fallback: () => 'en_US',
    check: (v) => (typeof v === 'string' && /^([a-z]{2,3}(_[A-Z]{2})?(_[a-z]+)?)?$/.test(v) ? null : messages.language),
  },
};

/** One setting's argument: the schema's check and sanitizing, `null` exempt (it reverts to the default). */
function settingArg(setting: Setting, ctx: FeatureContext): ArgDefinition {
  return {
    ...setting.schema,
    validateCallback: (value, _request, name): true | RestError => {
      if (value === null) return true;
      const valid = validateValue(value, setting.schema, name);
      if (valid !== true) return valid;
      const problem = setting.check?.(value, ctx);
      return problem ? invalidParams(problem) : true;
    },
    sanitizeCallback: (value) => (value === null ? null : sanitizeValue(value, setting.schema)),
  };
}

/** A stored value that does not fit the schema reads as null (docs/spec/current-clients.md §D.3). */
function readValue(setting: Setting, stored: JsonValue): JsonValue {
  if (validateValue(stored, setting.schema, 'value') !== true) return null;
  const value = sanitizeValue(stored, setting.schema) as JsonValue;
  // WordPress stores an empty WPLANG for en_US.
  return setting.option === 'WPLANG' && value === '' ? 'en_US' : value;
}

/** What a `wp/v2/settings` write is about, in its audit event. */
const WP_SETTINGS = { type: 'site', id: 'wp-settings', name: 'site settings' } as const;

export function registerSettingsRoute(ctx: FeatureContext): void {
  const sources = new RequestSources(ctx.store.appPasswords, ctx.clock);
  const options = ctx.store.options;
  const canManage = permission('manage_options', (request: RestRequest) => request.user.can('manage_options'));

  const readAll = async (): Promise<Record<string, JsonValue>> => {
    const stored = await options.getMany(Object.values(SETTINGS).map((s) => s.option));
    const out: Record<string, JsonValue> = {};
    for (const [key, setting] of Object.entries(SETTINGS)) {
      const value = setting.option === 'siteurl' ? ctx.site.homeUrl : stored.get(setting.option);
      out[key] = readValue(setting, value === undefined ? await setting.fallback(ctx) : value);
    }
    return out;
  };

  const schema = (): JsonValue => ({
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: 'settings',
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(SETTINGS).map(([key, s]) => [
        key,
        {
          type: s.schema.type,
          title: s.title,
          description: s.schema.description ?? '',
          default: null,
          ...(s.schema.format ? { format: s.schema.format } : {}),
        },
      ]),
    ),
  });

  // Each setting's argument is its schema with WordPress's checks (settingArg), worked out here once.
  const body = Type.Object(
    Object.fromEntries(Object.entries(SETTINGS).map(([key, s]) => [key, Type.Optional(Type.Unsafe<JsonValue>(settingArg(s, ctx)))])),
  );
  ctx.api.registerRoute(
    'wp/v2',
    '/settings',
    Object.assign(
      [
        defineRoute({ permission: canManage, response: answers<Record<string, JsonValue>>({ schema: 'item' }), handler: readAll }),
        defineRoute({
          methods: ['POST', 'PUT', 'PATCH'],
          body,
          permission: canManage,
          response: answers<Record<string, JsonValue>>({ schema: 'item' }),
          handler: async ({ body: given, request }) => {
            // Arguments are all checked before this runs: any invalid key refused the request with nothing written.
            // One transaction with its `settings.updated` event (docs/audit-log.md), each option before → after.
            await audited(
              (fn) => ctx.store.transaction(fn),
              await sources.of(request),
              async (tx) => {
                for (const [key, value] of Object.entries(given)) {
                  // Checked equal to the configured address (or null): nothing to store.
                  if (key === 'url') continue;
                  const { option } = SETTINGS[key]!;
                  if (value === null) await tx.options.delete(option);
                  else await tx.options.set(option, option === 'WPLANG' && value === 'en_US' ? '' : (value as JsonValue));
                }
              },
              (_, changes) => (Object.keys(changes).length === 0 ? null : { action: 'settings.updated', object: WP_SETTINGS }),
            );
            return readAll();
          },
        }),
      ],
      { schema, invalidParamDetails: true },
    ),
  );
}
