/** Who may view stats: read by the plugin's `Initial_State` and the connection's user data. */
import { isPlainObject } from '../../core/objects.js';
import type { OptionsRepo } from '../../store/types.js';

/** Roles allowed to view stats: the stats module's `roles` option, administrators by default. */
export async function statsRoles(options: Pick<OptionsRepo, 'get'>): Promise<string[]> {
  const stored = await options.get('stats_options');
  const roles = isPlainObject(stored) ? stored.roles : undefined;
  return Array.isArray(roles) ? roles.filter((r): r is string => typeof r === 'string') : ['administrator'];
}
