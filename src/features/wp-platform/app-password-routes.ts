/**
 * `wp/v2/users/{id|me}/application-passwords` and `…/introspect` (WordPress 5.6/5.7's
 * `WP_REST_Application_Passwords_Controller`, docs/spec/current-clients.md §C), over the same
 * store and service as `siteward app-password`. Siteward accepts application passwords on every
 * request (HTTP Basic), so they are always available: `application_passwords_disabled` never
 * applies. None of these routes may run inside `batch/v1`.
 */
import { appPasswordEvent, appPasswordInfo, appPasswordNameTooLong, type AppPasswordInfo } from '../../auth/app-passwords.js';
import { APP_PASSWORD_LIMITS, longerThan } from '../../core/text-limits.js';
import { RequestSources } from '../audit/index.js';
import { invalidParams, type RestError } from '../../rest/errors.js';
import { RestResponse, type ArgDefinition, type EndpointDefinition, type RestRequest } from '../../rest/types.js';
import { Type } from '@sinclair/typebox';
import { answers, defineRoute, permission as named, type NamedPermission } from '../../rest/define-route.js';
import type { JsonValue } from '../../core/json.js';
import type { UserRecord } from '../../store/types.js';
import type { FeatureContext } from '../contract.js';
import type { WriteDeps } from './user-writes.js';
import { deletedSchema } from './users-routes.js';
import { invalidArgument, wpError, type WpErrorId } from './wp-errors.js';

/** A name (100 characters) and an app id: 16 KiB leaves room for any encoding of them. */
const APP_PASSWORD_BODY_LIMIT = 16 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** WordPress's `rest_validate_value_from_schema` message for format uuid. */
const notUuid = (value: unknown) => `${String(value)} is not a valid UUID.`;

/** GMT without offset, as WordPress prints these dates (`2026-08-20T09:15:02`). */
function gmt(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString().slice(0, 19);
}

/** WordPress shows a new password in groups of four. */
function chunked(password: string): string {
  return password.match(/.{1,4}/g)!.join(' ');
}

type Context = 'view' | 'edit' | 'embed';

function item(
  info: AppPasswordInfo,
  userId: number,
  context: Context,
  restUrl: (p: string) => string,
  password?: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = { uuid: info.uuid, app_id: info.appId, name: info.name };
  if (context !== 'embed') Object.assign(out, { created: gmt(info.created), last_used: gmt(info.lastUsed), last_ip: info.lastIp });
  if (password !== undefined) out.password = chunked(password);
  out._links = { self: [{ href: restUrl(`/wp/v2/users/${userId}/application-passwords/${info.uuid}`) }] };
  return out;
}

function schema(): JsonValue {
  const all = ['view', 'edit', 'embed'];
  return {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: 'application-password',
    type: 'object',
    properties: {
      uuid: {
        description: 'The unique identifier for the application password.',
        type: 'string',
        format: 'uuid',
        context: all,
        readonly: true,
      },
      app_id: {
        description:
          'A UUID provided by the application to uniquely identify it. It is recommended to use an UUID v5 with the URL or DNS namespace.',
        type: 'string',
        format: 'uuid',
        context: all,
      },
      name: {
        description: 'The name of the application password.',
        type: 'string',
        required: true,
        context: all,
        minLength: 1,
        pattern: '.*\\S.*',
      },
      password: {
        description: 'The generated password. Only available after adding an application.',
        type: 'string',
        context: ['edit'],
        readonly: true,
      },
      created: {
        description: 'The GMT date the application password was created.',
        type: 'string',
        format: 'date-time',
        context: ['view', 'edit'],
        readonly: true,
      },
      last_used: {
        description: 'The GMT date the application password was last used.',
        type: ['string', 'null'],
        format: 'date-time',
        context: ['view', 'edit'],
        readonly: true,
      },
      last_ip: {
        description: 'The IP address the application password was last used by.',
        type: ['string', 'null'],
        format: 'ip',
        context: ['view', 'edit'],
        readonly: true,
      },
    },
  };
}

const CONTEXT_ARG: ArgDefinition = {
  description: 'Scope under which the request is made; determines fields present in response.',
  type: 'string',
  enum: ['view', 'embed', 'edit'],
  default: 'view',
};
/** `context`, sanitized to one of the enum's values (its default when absent). */
const query = Type.Object({ context: Type.Unsafe<Context>(CONTEXT_ARG) });
const contextOf = (given: { readonly context?: Context }): Context =>
  given.context === 'edit' ? 'edit' : given.context === 'embed' ? 'embed' : 'view';
/** The URL's `user_id`: digits or `me`. */
const userParams = Type.Object({ user_id: Type.String() });
const passwordParams = Type.Object({ user_id: Type.String(), uuid: Type.String() });
type UserInput = { readonly params: { readonly user_id: string } };

export function registerAppPasswordRoutes(ctx: FeatureContext, deps: WriteDeps): void {
  const apps = deps.authenticator.appPasswords;
  // Who asks, for the audit events of each write (docs/audit-log.md).
  const sources = new RequestSources(deps.store.appPasswords);
  const restUrl = (p: string) => ctx.api.restUrl(p);
  const targets = new WeakMap<RestRequest, UserRecord>();

  /** C.2: `me` logged out → 401; an unknown id → 404; then the meta capability (edit_user on the target). */
  const allowed = async (refusal: Exclude<WpErrorId, 'unknown_role'>, request: RestRequest, raw: string): Promise<true | RestError> => {
    if (raw === 'me' && request.user.id === 0) return wpError('not_logged_in', request);
    const id = raw === 'me' ? request.user.id : Number(raw);
    const user = id > 0 ? await deps.store.users.byId(id) : undefined;
    if (!user) return wpError('user_invalid_id', request);
    targets.set(request, user);
    const mayEdit = request.user.id !== 0 && (request.user.id === user.id || request.user.can('edit_users'));
    return mayEdit ? true : wpError(refusal, request);
  };
  const permission = (refusal: Exclude<WpErrorId, 'unknown_role'>): NamedPermission<UserInput> =>
    named('self or edit_users', (request: RestRequest, input: UserInput) => allowed(refusal, request, input.params.user_id));
  const target = (request: RestRequest) => targets.get(request)!;
  const find = async (request: RestRequest, uuid: string): Promise<AppPasswordInfo | RestError> => {
    const records = await deps.store.appPasswords.listForUser(target(request).id);
    const record = records.find((r) => r.uuid === uuid);
    return record ? appPasswordInfo(record) : wpError('app_password_not_found', request);
  };

  const base = '/users/(?P<user_id>(?:[\\d]+|me))/application-passwords';
  const nameDescription = 'The name of the application password.';

  const collection: EndpointDefinition[] = [
    defineRoute({
      params: userParams,
      query,
      response: answers({ schema: 'collection' }),
      permission: permission('cannot_list_app_passwords'),
      handler: async ({ query: given, request }) => {
        const user = target(request);
        const context = contextOf(given);
        return (await deps.store.appPasswords.listForUser(user.id)).map((r) => item(appPasswordInfo(r), user.id, context, restUrl));
      },
    }),
    defineRoute({
      methods: 'POST',
      params: userParams,
      body: Type.Object({
        name: Type.String({ description: nameDescription }),
        app_id: Type.Optional(
          Type.String({
            description: 'A UUID provided by the application to uniquely identify it.',
            validateCallback: (v: unknown) => (v === '' || (typeof v === 'string' && UUID.test(v)) ? true : invalidParams(notUuid(v))),
          }),
        ),
      }),
      response: answers({ schema: 'item', status: 201 }),
      maxBodyBytes: APP_PASSWORD_BODY_LIMIT,
      permission: permission('cannot_create_app_passwords'),
      handler: async ({ body, request }) => {
        const user = target(request);
        const appId = typeof body.app_id === 'string' ? body.app_id : '';
        const created = await apps.create(user.login, String(body.name), { appId, source: await sources.of(request) });
        if (!created.ok && created.code === 'name_too_long') return invalidArgument('name', appPasswordNameTooLong);
        if (!created.ok && created.code === 'too_many') return wpError('app_password_limit', request);
        if (!created.ok)
          return wpError(
            created.code === 'duplicate_name'
              ? 'app_password_duplicate_name'
              : created.code === 'invalid_name'
                ? 'app_password_empty_name'
                : 'user_invalid_id',
            request,
          );
        const answer = item(created.info, user.id, 'edit', restUrl, created.password);
        return new RestResponse(answer, 201, { Location: restUrl(`/wp/v2/users/${user.id}/application-passwords/${created.info.uuid}`) });
      },
    }),
    defineRoute({
      methods: 'DELETE',
      params: userParams,
      response: answers({
        schema: () => ({
          type: 'object',
          properties: { deleted: { type: 'boolean' }, count: { type: 'integer' } },
          required: ['deleted', 'count'],
        }),
      }),
      permission: permission('cannot_delete_app_passwords'),
      handler: async ({ request }) => {
        const user = target(request);
        const source = await sources.of(request);
        const count = await deps.store.transaction(async (tx) => {
          const all = await tx.appPasswords.listForUser(user.id);
          const n = await tx.appPasswords.deleteAllForUser(user.id);
          for (const p of all)
            tx.audit(appPasswordEvent(source, 'app_password.revoked', user, p.uuid, { name: { before: p.name, after: null } }));
          return n;
        });
        deps.authenticator.forgetUser(user.id);
        return { deleted: true, count };
      },
    }),
  ];

  const introspect: EndpointDefinition = defineRoute({
    params: userParams,
    query,
    response: answers({ schema: 'item' }),
    permission: named('self', async (request: RestRequest, input: UserInput) => {
      const mayEdit = await allowed('cannot_introspect', request, input.params.user_id);
      if (mayEdit !== true) return mayEdit;
      return request.user.id === target(request).id ? true : wpError('cannot_introspect', request);
    }),
    handler: async ({ query: given, request }) => {
      const uuid = request.credential;
      if (!uuid) return wpError('no_app_password', request);
      const records = await deps.store.appPasswords.listForUser(target(request).id);
      const record = records.find((r) => r.uuid === uuid);
      return record ? item(appPasswordInfo(record), record.userId, contextOf(given), restUrl) : wpError('app_password_vanished', request);
    },
  });

  const single: EndpointDefinition[] = [
    defineRoute({
      params: passwordParams,
      query,
      response: answers({ schema: 'item' }),
      permission: permission('cannot_read_app_password'),
      handler: async ({ params, query: given, request }) => {
        const found = await find(request, params.uuid);
        return 'uuid' in found ? item(found, target(request).id, contextOf(given), restUrl) : found;
      },
    }),
    defineRoute({
      methods: ['POST', 'PUT', 'PATCH'],
      params: passwordParams,
      body: Type.Object({ name: Type.Optional(Type.String({ description: nameDescription })) }),
      response: answers({ schema: 'item' }),
      maxBodyBytes: APP_PASSWORD_BODY_LIMIT,
      permission: permission('cannot_edit_app_password'),
      handler: async ({ params, body, request }) => {
        const found = await find(request, params.uuid);
        if (!('uuid' in found)) return found;
        const name = body.name;
        if (typeof name === 'string') {
          if (name.trim() === '') return wpError('app_password_empty_name', request);
          if (longerThan(name.trim(), APP_PASSWORD_LIMITS.name)) return invalidArgument('name', appPasswordNameTooLong);
          const source = await sources.of(request);
          const owner = target(request);
          await deps.store.transaction(async (tx) => {
            if ((await tx.appPasswords.rename(owner.id, found.uuid, name.trim())) && found.name !== name.trim())
              tx.audit(
                appPasswordEvent(source, 'app_password.renamed', owner, found.uuid, { name: { before: found.name, after: name.trim() } }),
              );
          });
        }
        const updated = await find(request, params.uuid);
        return 'uuid' in updated ? item(updated, target(request).id, 'edit', restUrl) : updated;
      },
    }),
    defineRoute({
      methods: 'DELETE',
      params: passwordParams,
      response: answers({ schema: deletedSchema }),
      permission: permission('cannot_delete_app_password'),
      handler: async ({ params, request }) => {
        const found = await find(request, params.uuid);
        if (!('uuid' in found)) return found;
        const user = target(request);
        await apps.revoke(user.login, found.uuid, await sources.of(request));
        return { deleted: true, previous: item(found, user.id, 'edit', restUrl) };
      },
    }),
  ];

  ctx.api.registerRoute('wp/v2', base, Object.assign(collection, { schema, invalidParamDetails: true }));
  ctx.api.registerRoute('wp/v2', `${base}/introspect`, Object.assign([introspect], { schema, invalidParamDetails: true }));
  ctx.api.registerRoute('wp/v2', `${base}/(?P<uuid>[\\w\\-]+)`, Object.assign(single, { schema, invalidParamDetails: true }));
}
