/**
 * Sharing (sharedaddy) options. Storage follows the reference: `sharing-services` holds the
 * visible/hidden service lists, `sharing-options.global` the button settings and the list of
 * custom service ids, and `sharing-options[<custom id>]` each custom service.
 */
import { isPlainObject } from '../../../../core/objects.js';
import type { JsonObject, JsonValue } from '../../../../core/json.js';
import type { ModuleOptionDefinition, OptionWriteContext, OptionWriteOutcome } from '../../module-types.js';
import { enumOption, boolOption, textOption } from '../option-builders.js';
import { getIn } from '../option-storage.js';
import {
  CUSTOM_SERVICE_ID,
  toStringList,
  toTwitterUsername,
  validateCustomService,
  validateCustomServiceId,
  validateSharingServices,
  validateSharingShow,
  validateTwitterUsername,
} from '../option-validators.js';

export const SHARING_SERVICES_OPTION = 'sharing-services';
export const SHARING_OPTIONS_OPTION = 'sharing-options';

/**
 * The services Jump Start turns on and the default of `sharing_services`. Google+ (`google-plus-1`)
 * is still accepted in stored lists but no longer offered: the service is gone (docs/spec/compat.md §9).
 */
export const DEFAULT_SHARING_SERVICES = { visible: ['twitter', 'facebook'], hidden: [] as string[] };

/** The label Jump Start sets (the era's default label). */
export const DEFAULT_SHARING_LABEL = 'Share this:';

const globalField = (key: string) => ({ option: SHARING_OPTIONS_OPTION, path: ['global', key] });

function customIds(sharingOptions: JsonValue | undefined): string[] {
  const ids = getIn(sharingOptions, ['global', 'custom']);
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/** Saves the service lists after checking that every custom id in them exists. */
async function writeServices(value: JsonValue, io: OptionWriteContext): Promise<OptionWriteOutcome> {
  const lists = value as { visible: string[]; hidden: string[] };
  const known = customIds(await io.options.get(SHARING_OPTIONS_OPTION));
  const unknown = [...lists.visible, ...lists.hidden].filter((id) => CUSTOM_SERVICE_ID.test(id) && !known.includes(id));
  if (unknown.length > 0) return { ok: false, info: `Unknown custom sharing service ${unknown.join(', ')}` };
  const stored = { visible: [...new Set(lists.visible)], hidden: [...new Set(lists.hidden)] };
  let changed = false;
  await io.options.update(SHARING_SERVICES_OPTION, (current) => {
    changed = JSON.stringify(current) !== JSON.stringify(stored);
    return stored;
  });
  return { ok: true, changed, value: stored };
}

/** Creates a custom service `custom-<digits>`; the response carries the new service. */
async function writeCustom(value: JsonValue, io: OptionWriteContext): Promise<OptionWriteOutcome> {
  const sent = value as { sharing_name: string; sharing_url: string; sharing_icon: string };
  let service: JsonObject = {};
  await io.options.update(SHARING_OPTIONS_OPTION, (current) => {
    const root: JsonObject = isPlainObject(current) ? { ...current } : {};
    const ids = customIds(root);
    let n = Date.now();
    while (ids.includes(`custom-${n}`)) n += 1;
    const id = `custom-${n}`;
    service = { id, name: sent.sharing_name.trim(), url: sent.sharing_url.trim(), icon: sent.sharing_icon.trim() };
    const global = getIn(root, ['global']);
    root.global = { ...(isPlainObject(global) ? global : {}), custom: [...ids, id] };
    root[id] = { name: service.name!, url: service.url!, icon: service.icon! };
    return root;
  });
  return { ok: true, changed: true, value: service, response: { custom: service } };
}

/** Deletes a custom service and removes it from the visible/hidden lists. */
async function writeDeleteService(value: JsonValue, io: OptionWriteContext): Promise<OptionWriteOutcome> {
  const id = value as string;
  let found = false;
  await io.options.update(SHARING_OPTIONS_OPTION, (current) => {
    const ids = customIds(current);
    found = ids.includes(id);
    if (!found || typeof current !== 'object' || current === null || Array.isArray(current)) return current;
    const root: JsonObject = { ...current };
    delete root[id];
    root.global = { ...(root.global as JsonObject), custom: ids.filter((other) => other !== id) };
    return root;
  });
  if (!found) return { ok: false, info: 'The sharing service does not exist' };
  await io.options.update(SHARING_SERVICES_OPTION, (current) => {
    if (typeof current !== 'object' || current === null || Array.isArray(current)) return current;
    const drop = (list: JsonValue | undefined) => (Array.isArray(list) ? list.filter((other) => other !== id) : []);
    return { ...current, visible: drop(current.visible), hidden: drop(current.hidden) };
  });
  return { ok: true, changed: true, value: id };
}

export const sharingOptions: Record<string, ModuleOptionDefinition> = {
  sharing_services: {
    description: 'Enabled Services and those hidden behind a button',
    type: 'array',
    default: DEFAULT_SHARING_SERVICES,
    validate: validateSharingServices,
    sanitize: (value) => value as JsonValue,
    storage: { option: SHARING_SERVICES_OPTION },
    write: writeServices,
  },
  button_style: enumOption(
    'Button Style',
    { 'icon-text': 'Icon + text', icon: 'Icon only', text: 'Text only', official: 'Official buttons' },
    'icon',
    globalField('button_style'),
  ),
  sharing_label: textOption('Sharing Label', '', 'esc_html', globalField('sharing_label')),
  show: {
    description: 'Views where buttons are shown',
    type: 'array',
    default: ['post'],
    validate: validateSharingShow,
    sanitize: toStringList,
    storage: globalField('show'),
  },
  'jetpack-twitter-cards-site-tag': {
    ...textOption("The Twitter username of the owner of this site's domain.", '', 'esc_html', undefined, toTwitterUsername),
    validate: validateTwitterUsername,
  },
  sharedaddy_disable_resources: boolOption('Disable CSS and JS', 0),
  custom: {
    description: 'Custom sharing services added by user.',
    type: 'array',
    default: { sharing_name: '', sharing_url: '', sharing_icon: '' },
    validate: validateCustomService,
    storage: { option: SHARING_OPTIONS_OPTION },
    writeOnly: true,
    write: writeCustom,
  },
  sharing_delete_service: {
    description: 'Delete custom sharing service.',
    type: 'string',
    default: '',
    validate: validateCustomServiceId,
    storage: { option: SHARING_OPTIONS_OPTION },
    writeOnly: true,
    write: writeDeleteService,
  },
};
