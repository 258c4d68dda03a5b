/** Whether Monitor has a site URL worth checking (its module's availability, docs/spec/compat.md §9). */
import { isLoopbackHost } from '../../core/loopback-host.js';

/**
 * Null when Monitor can check the site, else what is missing. "Reachable" is decided from the
 * configuration alone (the module list asks on every request, so no network call): a URL set
 * with SITEWARD_MONITOR_URL is taken as the operator's choice; the home URL counts only when its
 * host is not this machine (localhost, 127.0.0.0/8, ::1, 0.0.0.0), since checking a loopback
 * address says nothing about whether visitors reach the site.
 */
export function monitorServiceGap(monitorUrl: string | null, homeUrl: string): { message: string; settings: string[] } | null {
  if (monitorUrl !== null) return null;
  const host = new URL(homeUrl).hostname;
  if (!isLoopbackHost(host) && host !== '0.0.0.0' && host !== '[::]') return null;
  return {
    message: `Monitor needs a URL to check, and the home URL (${homeUrl}) only reaches this machine. Set SITEWARD_MONITOR_URL to the URL to check (for a local trial, the home URL itself: SITEWARD_MONITOR_URL=${homeUrl}/), or SITEWARD_HOME_URL to the address visitors use, then restart Siteward.`,
    settings: ['SITEWARD_MONITOR_URL', 'SITEWARD_HOME_URL'],
  };
}
