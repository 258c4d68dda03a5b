/** The Jump Start state value (docs/spec/jetpack-v4-reference.md §7) and the "administrator acted" transition. */
import type { OptionsRepo } from '../../../store/types.js';
import { stateKeys } from '../state-keys.js';

export type JumpstartState = 'new_connection' | 'jumpstart_activated' | 'jetpack_action_taken' | 'jumpstart_dismissed';

/** A fresh site has no stored state and is a `new_connection` (docs/spec/compat.md §9). */
export function asJumpstartState(value: unknown): JumpstartState {
  return value === 'jumpstart_activated' || value === 'jetpack_action_taken' || value === 'jumpstart_dismissed' ? value : 'new_connection';
}

export async function readJumpstartState(options: OptionsRepo): Promise<JumpstartState> {
  return asJumpstartState(await options.get(stateKeys.jumpstart));
}

/**
 * While the offer is open, an administrator's own action (a module toggle, a tracked option
 * update) closes it: `new_connection` → `jetpack_action_taken`. Other states stay.
 */
export async function markActionTaken(options: OptionsRepo): Promise<void> {
  await options.update(stateKeys.jumpstart, (current) =>
    asJumpstartState(current) === 'new_connection' ? 'jetpack_action_taken' : (current ?? 'new_connection'),
  );
}

/**
 * The historical tracked options (the reset list's site options, docs/spec/jetpack-v4-reference.md §3.16 and §6 note):
 * a change to any of them while `new_connection` counts as the administrator acting.
 */
export const TRACKED_OPTIONS: ReadonlySet<string> = new Set([
  'sharing-options',
  'disabled_likes',
  'disabled_reblogs',
  'jetpack_comments_likes_enabled',
  'wp_mobile_excerpt',
  'wp_mobile_featured_images',
  'wp_mobile_app_promos',
  'stats_options',
  'stats_dashboard_widget',
  'safecss_preview_rev',
  'safecss_rev',
  'safecss_revision_migrated',
  'nova_menu_order',
  'jetpack_portfolio',
  'jetpack_portfolio_posts_per_page',
  'jetpack_testimonial',
  'jetpack_testimonial_posts_per_page',
  'wp_mobile_custom_css',
  'sharedaddy_disable_resources',
  'sharing-services',
  'site_icon_temp_data',
  'featured-content',
  'site_logo',
  stateKeys.dismissedNotices,
]);
