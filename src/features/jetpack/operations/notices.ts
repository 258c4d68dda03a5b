/** Dismissed admin notices (docs/spec/jetpack-v4-reference.md §3.17). */
import { isPlainObject } from '../../../core/objects.js';
import type { RestError } from '../../../rest/errors.js';
import type { JsonValue } from '../../../core/json.js';
import type { Principal } from '../../../rest/types.js';
import type { OptionsRepo } from '../../../store/types.js';
import type { PluginContext } from '../context.js';
import { pluginError } from '../../jetpack-v4/errors.js';
import { stateKeys } from '../state-keys.js';
import { TRACKED_OPTIONS, markActionTaken } from './jumpstart-state.js';
import type { RestRequest } from '../../../rest/types.js';
import { auditedTransaction, changed, sourceFor } from './audit-trail.js';

export const NOTICES = ['feedback_dash_request', 'welcome'] as const;

type NoticeMap = Record<string, JsonValue>;

function asMap(value: JsonValue | undefined): NoticeMap {
  return isPlainObject(value) ? value : {};
}

/** The stored map notice → true (empty when nothing was dismissed). */
export async function readDismissedNotices(options: OptionsRepo): Promise<NoticeMap> {
  return asMap(await options.get(stateKeys.dismissedNotices));
}

/**
 * Marks a notice dismissed and answers the whole map. Names are compared exactly, so
 * `WELCOME` (which the case-insensitive route lets through) is an invalid notice.
 */
export async function dismissNotice(
  ctx: PluginContext,
  notice: string,
  user?: Principal,
  request?: RestRequest,
): Promise<NoticeMap | RestError> {
  if (!(NOTICES as readonly string[]).includes(notice)) return pluginError('invalid_notice');
  const source = await sourceFor(ctx, request);
  return auditedTransaction(
    ctx,
    source,
    async (tx) => {
      let changed = false;
      const map = await tx.options.update(stateKeys.dismissedNotices, (current) => {
        const before = asMap(current);
        changed = before[notice] !== true;
        return { ...before, [notice]: true };
      });
      // The notices option is one of the historically tracked options (jumpstart-state.ts); only an
      // administrator's dismissal counts as acting on the Jump Start offer (docs/spec/compat.md §9).
      if (changed && TRACKED_OPTIONS.has(stateKeys.dismissedNotices) && (!user || user.can('manage_options')))
        await markActionTaken(tx.options);
      return asMap(map);
    },
    (_map, changes) => (changed(changes) ? { action: 'notice.dismissed', object: { type: 'notice', id: notice, name: notice } } : null),
  );
}
