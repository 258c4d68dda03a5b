/**
 * `api.audit` (docs/plugins.md "Audit events"): a plugin's own events, checked here and appended
 * to the one audit log by what the composition root hands in.
 */
import type { RestRequest } from '../rest/types.js';
import type { AuditChange, AuditEventInput, AuditObject, AuditSource } from '../wire/audit.js';
import type { PluginAuditOptions } from './api.js';

/** `plugin.<vendor>.<event>[.<more>]`: lower case, so a plugin cannot write Siteward's own actions (`user.created`). */
export const PLUGIN_ACTION = /^plugin\.[a-z0-9][a-z0-9_-]{0,63}(\.[a-z0-9][a-z0-9_]{0,63}){1,4}$/;
/** The most a plugin's event may carry as JSON (object and changes): the log is no blob store. */
export const PLUGIN_EVENT_MAX_BYTES = 16 * 1024;

/** What `api.audit` needs from the composition root. */
export interface PluginAuditDeps {
  /** The request's actor and where it came from. */
  source(request: RestRequest): Promise<AuditSource>;
  append(events: readonly AuditEventInput[]): Promise<void>;
}

/** The checked event, or a TypeError naming what is wrong (a plugin developer's mistake). */
export function pluginAuditEvent(
  plugin: string,
  source: AuditSource | null,
  action: string,
  object: AuditObject | null,
  changes: Readonly<Record<string, AuditChange>>,
  options: PluginAuditOptions,
): AuditEventInput {
  if (typeof action !== 'string' || !PLUGIN_ACTION.test(action))
    throw new TypeError(`api.audit: "${String(action).slice(0, 100)}" is not a plugin action; use plugin.<vendor>.<event>, lower case`);
  if (
    object !== null &&
    !(isObject(object) && ['type', 'id', 'name'].every((k) => typeof (object as unknown as Record<string, unknown>)[k] === 'string'))
  )
    throw new TypeError('api.audit: object must be null or {type, id, name} strings');
  if (!isObject(changes)) throw new TypeError('api.audit: changes must be an object of field → {before, after} or {secret: true}');
  for (const [field, change] of Object.entries(changes)) {
    const ok = isObject(change) && (('before' in change && 'after' in change) || (change as { secret?: unknown }).secret === true);
    if (!ok) throw new TypeError(`api.audit: changes.${field} must be {before, after} or {secret: true}`);
  }
  if (options.result !== undefined && !['ok', 'denied', 'failed'].includes(options.result))
    throw new TypeError('api.audit: result must be ok, denied or failed');
  let size: number;
  try {
    size = Buffer.byteLength(JSON.stringify({ object, changes }));
  } catch {
    throw new TypeError('api.audit: object and changes must be JSON');
  }
  if (size > PLUGIN_EVENT_MAX_BYTES)
    throw new TypeError(`api.audit: object and changes take ${size} bytes as JSON; at most ${PLUGIN_EVENT_MAX_BYTES}`);
  const from: AuditSource = source ?? {
    actor: { kind: 'job', user_id: 0, login: '', credential: { type: 'none' }, job: `plugin:${plugin}` },
    client_ip: '',
    user_agent: '',
    request_id: '',
  };
  return {
    action,
    result: options.result ?? 'ok',
    actor: from.actor,
    client_ip: from.client_ip,
    user_agent: from.user_agent,
    request_id: from.request_id,
    // A copy through JSON: what is hashed is what was checked (no getters, no later mutation).
    object: object === null ? null : (JSON.parse(JSON.stringify(object)) as AuditObject),
    changes: JSON.parse(JSON.stringify(changes)) as Readonly<Record<string, AuditChange>>,
  };
}

/** `api.audit` of one plugin. */
export function pluginAudit(plugin: string, deps: PluginAuditDeps) {
  return async (
    action: string,
    object: AuditObject | null,
    changes: Readonly<Record<string, AuditChange>> = {},
    options: PluginAuditOptions = {},
  ): Promise<void> => {
    // Checked before anything is awaited: a bad call throws at once.
    pluginAuditEvent(plugin, null, action, object, changes, options);
    const source = options.request ? await deps.source(options.request) : null;
    await deps.append([pluginAuditEvent(plugin, source, action, object, changes, options)]);
  };
}

function isObject(value: unknown): value is object {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
