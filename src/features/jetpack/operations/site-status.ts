/** Connection and dev-mode facts that decide module availability (docs/spec/compat.md §9). */
import type { ActivationRefusal } from '../errors.js';
import type { CatalogModule } from '../module-types.js';
import type { DevModeState, PluginContext } from '../context.js';

export interface SiteStatus {
  readonly connected: boolean;
  readonly devMode: DevModeState & { isActive: boolean };
}

export async function siteStatus(ctx: PluginContext): Promise<SiteStatus> {
  const mode = ctx.site.devMode();
  return {
    connected: await ctx.site.isConnected(),
    devMode: { isActive: mode.constant || mode.url, constant: mode.constant, url: mode.url, filter: false },
  };
}

/** Why the module cannot be activated now, or null when it is available. */
export function refusalOf(mod: CatalogModule, status: SiteStatus): ActivationRefusal | null {
  if (!mod.requires_connection) return null;
  if (status.devMode.isActive) return 'dev_mode';
  if (!status.connected) return 'not_connected';
  return null;
}

/** Available = does not require a connection, or the site is connected and not in dev mode. */
export function isAvailable(mod: CatalogModule, status: SiteStatus): boolean {
  return refusalOf(mod, status) === null;
}
