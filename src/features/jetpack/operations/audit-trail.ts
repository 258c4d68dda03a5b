/**
 * The plugin's operations record what they change (docs/audit-log.md): each runs its options
 * transaction through `audited`, with the source (actor, address, credential) of the request
 * it serves.
 */
import type { RestRequest } from '../../../rest/types.js';
import type { StoreTx } from '../../../store/types.js';
import type { AuditChange, AuditObject } from '../../../wire/audit.js';
import { audited, jobSource, RequestSources, type AuditSource, type Described } from '../../audit/index.js';
import type { ModuleCatalog } from '../catalog/module-catalog.js';
import type { PluginContext } from '../context.js';

/** Requests of contexts wired without an application-password lookup (tests): names stay ''. */
const unnamed = new RequestSources({ listForUser: () => Promise.resolve([]) });

/** Who asks: the request's user and credential, or, without a request, the server itself. */
export function sourceFor(ctx: PluginContext, request: RestRequest | undefined): Promise<AuditSource> {
  if (!request) return Promise.resolve(jobSource('siteward'));
  return (ctx.auditSources ?? unnamed).of(request);
}

/** `fn` in one options transaction of the plugin's store, with the events `describe` gives. */
export function auditedTransaction<T>(
  ctx: PluginContext,
  source: AuditSource,
  fn: (tx: StoreTx) => Promise<T>,
  describe: (result: T, changes: Readonly<Record<string, AuditChange>>) => Described | readonly Described[] | null,
): Promise<T> {
  return audited((f) => ctx.store.transaction(f), source, fn, describe);
}

export function moduleObject(catalog: ModuleCatalog, slug: string): AuditObject {
  return { type: 'module', id: slug, name: catalog.get(slug)?.name ?? slug };
}

/** A change of the whole site's plugin state (Jump Start, resets, settings). */
export const SITE_OBJECT: AuditObject = { type: 'site', id: 'jetpack', name: 'site management' };

/** True when something changed. */
export function changed(changes: Readonly<Record<string, AuditChange>>): boolean {
  return Object.keys(changes).length > 0;
}
