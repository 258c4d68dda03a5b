/**
 * The admin page's own sentences where the API's wire `message` would otherwise show (issue 25:
 * the wire keeps the reference's words, e.g. "1 plugin need updating." and "Jetpack options reset.").
 * Plurals through `_n`, so a translation chooses its own forms.
 */
import { __, _n, sprintf } from '@wordpress/i18n';

/** The Plugin updates card, from the answer's `count`. */
export function updatesText(count: number): string {
  if (count === 0) return __('All plugins are up to date.', 'siteward');
  // translators: %d: how many plugins have an update.
  return sprintf(_n('%d plugin needs updating.', '%d plugins need updating.', count, 'siteward'), count);
}

/** The Jump Start button: how many of the offered features it will turn on. */
export function turnOnLabel(toTurnOn: number, offered: number): string {
  if (toTurnOn === 0) return __('Done: all are on', 'siteward');
  // translators: %d: how many features the button turns on.
  if (toTurnOn === offered) return sprintf(_n('Turn on this feature', 'Turn on these %d features', toTurnOn, 'siteward'), toTurnOn);
  // translators: %d: how many of the offered features are still off.
  return sprintf(_n('Turn on the remaining feature', 'Turn on the remaining %d features', toTurnOn, 'siteward'), toTurnOn);
}

/** What a reset did, after `options/options` or `options/modules` answered success. */
export function resetDoneText(what: 'options' | 'modules'): string {
  return what === 'options'
    ? __(
        'All options are reset: module settings, dismissed notices and sharing choices are back to their defaults, and the default modules are on.',
        'siteward',
      )
    : __('Modules are reset: only the default modules are on. Their settings are kept.', 'siteward');
}
