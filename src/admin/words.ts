/**
 * The admin page's own sentences where the API's wire `message` would otherwise show (issue 25:
 * the wire keeps the reference's words, e.g. "1 plugin need updating." and "Jetpack options reset.").
 */

/** "1 feature", "2 features". English plurals only: the page is not translated yet. */
export function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The Plugin updates card, from the answer's `count`. */
export function updatesText(count: number): string {
  if (count === 0) return 'All plugins are up to date.';
  return `${counted(count, 'plugin needs', 'plugins need')} updating.`;
}

/** The Jump Start button: how many of the offered features it will turn on. */
export function turnOnLabel(toTurnOn: number, offered: number): string {
  if (toTurnOn === 0) return 'Done: all are on';
  if (toTurnOn === offered) return toTurnOn === 1 ? 'Turn on this feature' : `Turn on these ${toTurnOn} features`;
  return toTurnOn === 1 ? 'Turn on the remaining feature' : `Turn on the remaining ${toTurnOn} features`;
}

/** What a reset did, after `options/options` or `options/modules` answered success. */
export function resetDoneText(what: 'options' | 'modules'): string {
  return what === 'options'
    ? 'All options are reset: module settings, dismissed notices and sharing choices are back to their defaults, and the default modules are on.'
    : 'Modules are reset: only the default modules are on. Their settings are kept.';
}
