/**
 * Plugin updates seen (docs/audit-log.md): the first time a check finds a newer version of a
 * plugin, an `update.available` event is written with the version it was seen at, in one
 * transaction with the option that remembers it (so each version is recorded once, whichever
 * worker or host checks, however often).
 */
import type { JsonValue } from '../../core/json.js';
import type { Store } from '../../store/types.js';
import { audited, type AuditSource } from '../audit/index.js';
import type { PluginUpdateDetail } from './plugin-updates.js';

/** Plugin package name → the newest version an update check has recorded. */
export const UPDATES_SEEN_OPTION = 'siteward_plugin_updates_seen';

export async function recordSeen(store: Store, source: AuditSource, details: readonly PluginUpdateDetail[]): Promise<void> {
  const newer = details.filter((d): d is PluginUpdateDetail & { latest: string } => d.updateAvailable && d.latest !== null);
  if (newer.length === 0) return;
  type Fresh = (PluginUpdateDetail & { latest: string })[];
  await audited<Fresh>(
    (fn) => store.transaction(fn),
    source,
    async (tx) => {
      const stored = await tx.options.get(UPDATES_SEEN_OPTION);
      const seen: Record<string, JsonValue> = stored !== null && typeof stored === 'object' && !Array.isArray(stored) ? { ...stored } : {};
      const fresh = newer.filter((d) => seen[d.name] !== d.latest);
      if (fresh.length === 0) return fresh;
      for (const d of fresh) seen[d.name] = d.latest;
      await tx.options.set(UPDATES_SEEN_OPTION, seen);
      return fresh;
    },
    (fresh) =>
      fresh.map((d) => ({
        action: 'update.available',
        object: { type: 'plugin', id: d.name, name: d.name },
        changes: { version: { before: d.current, after: d.latest } },
      })),
  );
}
