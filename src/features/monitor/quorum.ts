import type { Vote } from './monitor-store.js';

export type Verdict =
  | { readonly down: false; readonly hosts: number }
  | { readonly down: true; readonly hosts: number; readonly downHosts: number; readonly reason: string };

/**
 * The hosts' verdict on a check: down only when more than half of the hosts that voted saw it
 * down (one host of two, or one of three, that cannot reach the site is outvoted). With one host
 * it is that host's own view, as before there were several.
 */
export function quorumVerdict(votes: readonly Vote[], ownReason: string | null): Verdict {
  const down = votes.filter((v) => v.down);
  if (down.length * 2 <= votes.length) return { down: false, hosts: votes.length };
  // With several hosts, what most of them saw (this host may be the one that cannot reach the site).
  const reason =
    votes.length > 1 ? mostCommon(down.map((v) => v.reason ?? 'down')) : (ownReason ?? mostCommon(down.map((v) => v.reason ?? 'down')));
  return {
    down: true,
    hosts: votes.length,
    downHosts: down.length,
    reason: votes.length > 1 ? `${reason} (${down.length} of ${votes.length} hosts)` : reason,
  };
}

function mostCommon(reasons: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? 'down';
}
