/** Monitor's words shared by its screen and At a Glance. */
import { __ } from '@wordpress/i18n';

/** A check's state in a word; a maintenance window does not make a down site up. */
export function checkStateLabel(state: 'up' | 'down' | 'unknown', maintenance = false): string {
  if (state === 'down') return maintenance ? __('Down (maintenance)', 'siteward') : __('Down', 'siteward');
  return state === 'up' ? __('Up', 'siteward') : __('Not checked yet', 'siteward');
}

/** Short weekday names in the page's language (day 0 is Sunday, as the API counts). */
export const DAYS = Array.from({ length: 7 }, (_, day) =>
  new Date(Date.UTC(2023, 0, 1 + day)).toLocaleDateString(undefined, { weekday: 'short', timeZone: 'UTC' }),
);
