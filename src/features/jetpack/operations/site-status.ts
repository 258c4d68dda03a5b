/** Connection, dev-mode and service facts that decide module availability (docs/spec/compat.md §9). */
import type { UnavailableReason } from '../../../wire/jetpack-v4.js';
import type { CatalogModule } from '../module-types.js';
import type { DevModeState, PluginContext } from '../context.js';

/** What a service module lacks on this server (`not_configured`), or null when it is set up. */
export type ServiceGap = { readonly message: string; readonly settings: readonly string[] };

/**
 * A feature's check of its module's service (backups without a target, Monitor without a URL to
 * check). It reads configuration only: it runs on every module list, so it never calls the network.
 */
export type ServiceCheck = () => ServiceGap | null;

export interface SiteStatus {
  readonly connected: boolean;
  readonly devMode: DevModeState & { isActive: boolean };
  /** Modules whose service is not set up, by slug. */
  readonly gaps: ReadonlyMap<string, ServiceGap>;
}

const serviceChecks = new WeakMap<PluginContext, Map<string, ServiceCheck>>();

/** Registers the check of `slug`'s service; the last one registered for a slug wins. */
export function registerServiceCheck(ctx: PluginContext, slug: string, check: ServiceCheck): void {
  let checks = serviceChecks.get(ctx);
  if (!checks) serviceChecks.set(ctx, (checks = new Map()));
  checks.set(slug, check);
}

const NO_GAPS: ReadonlyMap<string, ServiceGap> = new Map();

function serviceGaps(ctx: PluginContext): ReadonlyMap<string, ServiceGap> {
  const checks = serviceChecks.get(ctx);
  if (!checks) return NO_GAPS;
  const gaps = new Map<string, ServiceGap>();
  for (const [slug, check] of checks) {
    const gap = check();
    if (gap) gaps.set(slug, gap);
  }
  return gaps;
}

export async function siteStatus(ctx: PluginContext): Promise<SiteStatus> {
  const mode = ctx.site.devMode();
  return {
    connected: await ctx.site.isConnected(),
    devMode: { isActive: mode.constant || mode.url, constant: mode.constant, url: mode.url, filter: false },
    gaps: serviceGaps(ctx),
  };
}

/** The module list depends on which services are missing: a short key of them for its cache. */
export function gapsKey(status: SiteStatus): string {
  return [...status.gaps.keys()].join(',');
}

/** The reasons of modules that need the connection (their activation error says the same). */
function connectionReason(code: 'dev_mode' | 'not_connected'): UnavailableReason {
  return code === 'dev_mode'
    ? {
        code,
        message: 'It needs a connection to the central account service, and the site is in development (offline) mode.',
        settings: ['SITEWARD_OFFLINE', 'SITEWARD_HOME_URL'],
      }
    : { code, message: 'It needs a connection to the central account service, and the site is not connected.', settings: [] };
}

/** Why the module cannot be activated now, or null when it is available. */
export function refusalOf(mod: CatalogModule, status: SiteStatus): UnavailableReason | null {
  const gap = status.gaps.get(mod.slug);
  if (gap) return { code: 'not_configured', message: gap.message, settings: [...gap.settings] };
  if (!mod.requires_connection) return null;
  if (status.devMode.isActive) return connectionReason('dev_mode');
  return status.connected ? null : connectionReason('not_connected');
}

/** Available = its service is set up, and it does not require a connection or the site is connected and not in dev mode. */
export function isAvailable(mod: CatalogModule, status: SiteStatus): boolean {
  return refusalOf(mod, status) === null;
}
