import { findPluginPackage, type PluginPackage } from './plugin-packages.js';
import type { RegistryClient, RegistryError } from './registry-client.js';
import semver from 'semver';

/** One checked plugin package, for logs and admin screens (not part of the wire body). */
export interface PluginUpdateDetail {
  readonly name: string;
  readonly current: string;
  /** Null when the registry could not tell. */
  readonly latest: string | null;
  readonly updateAvailable: boolean;
  readonly problem?: RegistryError | { readonly kind: 'unparsable_version'; readonly version: string };
}

export type PluginUpdatesBody =
  | { readonly code: 'success'; readonly message: string; readonly count: 0 }
  | { readonly code: 'updates-available'; readonly message: string; readonly count: number };

/**
 * The `GET updates/plugins` answer (docs/spec/jetpack-v4-reference.md §3.22): 200 with a body, or
 * not ok, which the route answers with the catalogue's `updates_check_failed` (404).
 */
export type PluginUpdatesAnswer =
  | { readonly ok: true; readonly status: 200; readonly body: PluginUpdatesBody; readonly details: readonly PluginUpdateDetail[] }
  | { readonly ok: false; readonly details: readonly PluginUpdateDetail[] };

/** The reference's wording, its singular "need" included (the client matches on code and count). */
export function updatesBody(count: number): PluginUpdatesBody {
  if (count === 0) return { code: 'success', message: 'All plugins are up-to-date. Keep up the good work!', count: 0 };
  return { code: 'updates-available', message: count === 1 ? '1 plugin need updating.' : `${count} plugins need updating.`, count };
}

async function check(pkg: PluginPackage, registry: RegistryClient): Promise<PluginUpdateDetail> {
  const base = { name: pkg.name, current: pkg.version };
  const answer = await registry.latestVersion(pkg.name);
  if (!answer.ok) return { ...base, latest: null, updateAvailable: false, problem: answer.error };
  // Strict SemVer 2.0.0 (a leading `v` tolerated); `latest` is already the registry's pick, so no ranges.
  const current = semver.parse(pkg.version.trim());
  const latest = semver.parse(answer.latest.trim());
  if (current === null)
    return { ...base, latest: answer.latest, updateAvailable: false, problem: { kind: 'unparsable_version', version: pkg.version } };
  if (latest === null)
    return { ...base, latest: answer.latest, updateAvailable: false, problem: { kind: 'unparsable_version', version: answer.latest } };
  return { ...base, latest: answer.latest, updateAvailable: semver.gt(latest, current) };
}

/**
 * Counts the loaded plugins with a newer `latest` on the registry. Plugins that are not
 * published packages (local files, private packages) cannot be updated and are left out. A
 * package the registry does not know (404) is treated as up to date, as `npm outdated` skips
 * it. The check fails as a whole (404 `not_found`) only when packages were to be checked and
 * the registry answered for none of them; otherwise the updates it could see are counted.
 * Packages are asked one after the other: a site has few plugins, and after a 429 the
 * remaining ones are answered at once from the client's back-off state.
 */
export async function pluginUpdatesAnswer(entries: readonly string[], cwd: string, registry: RegistryClient): Promise<PluginUpdatesAnswer> {
  const packages = new Map<string, PluginPackage>();
  for (const entry of entries) {
    const found = await findPluginPackage(entry, cwd);
    if (found.kind === 'package') packages.set(found.pkg.packageJson, found.pkg);
  }
  const details: PluginUpdateDetail[] = [];
  for (const pkg of packages.values()) details.push(await check(pkg, registry));
  const answered = details.filter(
    (d) => d.problem === undefined || d.problem.kind === 'not_found' || d.problem.kind === 'unparsable_version',
  );
  if (details.length > 0 && answered.length === 0) {
    return { ok: false, details };
  }
  return { ok: true, status: 200, body: updatesBody(details.filter((d) => d.updateAvailable).length), details };
}
