/** Modules: search, filters, optimistic on/off toggles, and each module's panel with its option form. */
import { Button, Card, CardBody, Notice, SearchControl, SelectControl, ToggleControl } from '@wordpress/components';
import { __, _n, sprintf } from '@wordpress/i18n';
import { useMemo, useState, type FormEvent } from 'react';
import { api, ApiError, jp, toApiError } from './api';
import { fromDraft, OptionField, readBack, sameDraft, toDraft, type DraftValue } from './option-fields';
import { badAllowListEntry } from './allow-list-entry';
import { useConnection, useModuleActions, useModules, useNotify } from './site';
import { SsoStatus } from './SsoStatus';
import { UnavailableReason } from './UnavailableReason';
import type { ModuleRecord, WireJson } from './types';

/** `#/modules/<slug>` from a record's configure_url (whatever host it names). */
export function configureHash(mod: ModuleRecord): string {
  const url = mod.configure_url ?? '';
  const hash = url.indexOf('#');
  return hash === -1 ? `#/modules/${mod.module}` : url.slice(hash);
}

function RuntimeBadge({ mod }: { mod: ModuleRecord }) {
  return mod.runtime === 'site' ? (
    <span
      className="sw-badge sw-badge-site"
      title={__("Siteward keeps this module's settings for the site's front end, which does the work.", 'siteward')}
    >
      {__('Front-end setting', 'siteward')}
    </span>
  ) : (
    <span className="sw-badge sw-badge-siteward" title={__('Siteward itself runs this module.', 'siteward')}>
      {__('Run by Siteward', 'siteward')}
    </span>
  );
}

function ModuleToggle({ mod }: { mod: ModuleRecord }) {
  const { toggleModule } = useModuleActions();
  const { busy } = useModules();
  const { user } = useConnection();
  const may = user.currentUser.permissions.manage_modules !== false;
  return (
    <ToggleControl
      __nextHasNoMarginBottom
      // translators: %s: a module's name.
      label={
        <span className="sw-visually-hidden">
          {sprintf(mod.activated ? __('%s: on', 'siteward') : __('%s: off', 'siteward'), mod.name)}
        </span>
      }
      checked={mod.activated}
      disabled={!mod.available || !may || busy.has(mod.module)}
      onChange={(on) => void toggleModule(mod.module, on)}
      data-testid={`toggle-${mod.module}`}
    />
  );
}

export function ModulesScreen({ slug }: { slug?: string }) {
  const { modules } = useModules();
  if (slug) {
    const mod = modules[slug];
    if (!mod) {
      return (
        <Notice status="error" isDismissible={false}>
          {/* translators: %s: the slug in the address. */}
          {sprintf(__('No module is called “%s”.', 'siteward'), slug)} <a href="#/modules">{__('All modules', 'siteward')}</a>
        </Notice>
      );
    }
    // One panel state per module: a draft must never carry over from the module shown before.
    return <ModulePanel key={mod.module} mod={mod} />;
  }
  return <ModuleList />;
}

function ModuleList() {
  const { modules } = useModules();
  const { connection } = useConnection();
  const [search, setSearch] = useState('');
  const [tag, setTag] = useState('');
  const [feature, setFeature] = useState('');
  const all = useMemo(() => Object.values(modules), [modules]);
  const tags = useMemo(() => [...new Set(all.flatMap((m) => m.module_tags))].sort(), [all]);
  const features = useMemo(() => [...new Set(all.flatMap((m) => m.feature))].sort(), [all]);
  const words = search.trim().toLowerCase();
  const shown = all.filter(
    (m) =>
      (!tag || m.module_tags.includes(tag)) &&
      (!feature || m.feature.includes(feature)) &&
      (!words || `${m.name} ${m.description} ${m.search_terms ?? m.additional_search_queries ?? ''}`.toLowerCase().includes(words)),
  );
  return (
    <>
      <div className="sw-filters">
        <SearchControl __nextHasNoMarginBottom label={__('Search modules', 'siteward')} value={search} onChange={setSearch} />
        <SelectControl
          __next40pxDefaultSize
          __nextHasNoMarginBottom
          label={__('Tag', 'siteward')}
          value={tag}
          onChange={setTag}
          options={[{ label: __('All tags', 'siteward'), value: '' }, ...tags.map((t) => ({ label: t, value: t }))]}
        />
        <SelectControl
          __next40pxDefaultSize
          __nextHasNoMarginBottom
          label={__('Feature', 'siteward')}
          value={feature}
          onChange={setFeature}
          options={[{ label: __('All features', 'siteward'), value: '' }, ...features.map((f) => ({ label: f, value: f }))]}
        />
      </div>
      <p className="sw-muted" role="status" aria-live="polite">
        {shown.length === all.length
          ? // translators: %d: how many modules there are.
            sprintf(_n('%d module', '%d modules', all.length, 'siteward'), all.length)
          : // translators: 1: how many modules match, 2: how many there are.
            sprintf(_n('%1$d of %2$d module', '%1$d of %2$d modules', all.length, 'siteward'), shown.length, all.length)}
      </p>
      <ul className="sw-module-list">
        {shown.map((m) => (
          <li
            key={m.module}
            id={`module-${m.module}`}
            className={`sw-module${m.available ? '' : ' sw-module-unavailable'}${m.activated ? ' sw-module-on' : ''}`}
            data-testid={`module-${m.module}`}
          >
            <div className="sw-module-text">
              <h2 className="sw-module-name">
                {m.name} <RuntimeBadge mod={m} />
              </h2>
              <p className="sw-module-desc">{m.short_description ?? m.description}</p>
              {!m.available && <UnavailableReason mod={m} offline={connection.devMode.isActive} />}
              {m.options && Object.keys(m.options).length > 0 && (
                // translators: %s: a module's name.
                <a href={configureHash(m)} className="sw-link" aria-label={sprintf(__('Configure %s', 'siteward'), m.name)}>
                  {__('Configure', 'siteward')}
                </a>
              )}
            </div>
            <ModuleToggle mod={m} />
          </li>
        ))}
      </ul>
      {shown.length === 0 && <p>{__('No module matches. Clear the search or the filters.', 'siteward')}</p>}
    </>
  );
}

type Draft = Record<string, DraftValue>;

/** A refused option's rule from the option catalogue, else the page's own words; never the raw `<key> must be …`. */
export function plainErrors(mod: ModuleRecord, params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.keys(params).map((key) => {
      const rule = mod.option_texts?.[key]?.rule;
      return [key, rule || __('This value was not accepted.', 'siteward')];
    }),
  );
}

/** A list field's error names its wrong entry (the server's message names none): `999.1.1.1` is not an address. */
function namedEntries(errors: Record<string, string>, valueOf: (key: string) => DraftValue): Record<string, string> {
  const named = { ...errors };
  for (const key of Object.keys(errors)) {
    const draft = valueOf(key);
    const bad = draft.kind === 'lines' ? badAllowListEntry(draft.value) : null;
    // translators: 1: the field's rule, 2: the entry that breaks it.
    if (bad !== null) named[key] = sprintf(__('%1$s “%2$s” is not one.', 'siteward'), errors[key], bad);
  }
  return named;
}

function ModulePanel({ mod }: { mod: ModuleRecord }) {
  const { setModules } = useModuleActions();
  const { notify } = useNotify();
  const { connection } = useConnection();
  const options = mod.options ?? {};
  const keys = Object.keys(options);
  const initial = useMemo(() => Object.fromEntries(keys.map((k) => [k, toDraft(options[k]!)])) as Draft, [mod.options]);
  const [draft, setDraft] = useState<Draft>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Options the module gained since the form opened (a reset, a save elsewhere) start from their value.
  const valueOf = (k: string): DraftValue => draft[k] ?? initial[k]!;
  const changed = keys.filter((k) => !sameDraft(valueOf(k), initial[k]!));

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const body: Record<string, WireJson> = {};
    const local: Record<string, string> = {};
    for (const key of changed) {
      const value = fromDraft(options[key]!, valueOf(key));
      if (value instanceof Error) local[key] = value.message;
      else body[key] = value;
    }
    setErrors(local);
    setFormError(null);
    if (Object.keys(local).length > 0) return;
    setSaving(true);
    try {
      await api(jp(`module/${mod.module}`), { method: 'PUT', data: body });
      setModules((m) => {
        const current = m[mod.module];
        if (!current?.options) return m;
        const next = { ...current.options };
        for (const [key, value] of Object.entries(body))
          if (next[key]) next[key] = { ...next[key], current_value: readBack(next[key], value) };
        return { ...m, [mod.module]: { ...current, options: next } };
      });
      // translators: %s: a module's name.
      notify({ status: 'success', text: sprintf(__('%s settings saved.', 'siteward'), mod.name) });
    } catch (raw) {
      const error = raw instanceof ApiError ? raw : toApiError(raw);
      // The wire's messages name the keys (`<key> must be …`): each field shows its rule in plain words instead.
      if (Object.keys(error.params).length > 0) setErrors(namedEntries(plainErrors(mod, error.params), valueOf));
      else setFormError(error.message);
      // Some keys may have been stored anyway (some_updated): read the module again.
      if (error.code === 'some_updated') {
        const all = await api<Record<string, ModuleRecord>>(jp('module/all')).catch(() => null);
        if (all?.[mod.module]) setModules((m) => ({ ...m, [mod.module]: all[mod.module]! }));
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="sw-panel">
      <p>
        <a href="#/modules" className="sw-link">
          {__('← All modules', 'siteward')}
        </a>
      </p>
      <Card className="sw-card">
        <CardBody size="small">
          <div className="sw-module-head">
            <div>
              <p className="sw-module-desc">{mod.description}</p>
              <p>
                <RuntimeBadge mod={mod} />
              </p>
            </div>
            <ModuleToggle mod={mod} />
          </div>
          {!mod.available && <UnavailableReason mod={mod} offline={connection.devMode.isActive} />}
          {mod.module === 'sso' && <SsoStatus activated={mod.activated} />}
          {keys.length === 0 ? (
            <p className="sw-muted">{__('This module has no settings.', 'siteward')}</p>
          ) : (
            // translators: %s: a module's name.
            <form onSubmit={(e) => void save(e)} noValidate aria-label={sprintf(__('%s settings', 'siteward'), mod.name)}>
              {!mod.activated && mod.available && (
                <Notice status="info" isDismissible={false}>
                  {/* translators: %s: a module's name. */}
                  {sprintf(__('Turn %s on to change its settings.', 'siteward'), mod.name)}
                </Notice>
              )}
              <fieldset disabled={!mod.activated || saving} className="sw-fieldset">
                {keys.map((key) => (
                  <OptionField
                    key={key}
                    name={key}
                    option={options[key]!}
                    texts={mod.option_texts?.[key]}
                    draft={valueOf(key)}
                    error={errors[key]}
                    onChange={(v) => setDraft((d) => ({ ...d, [key]: v }))}
                  />
                ))}
              </fieldset>
              {formError && (
                <Notice status="error" isDismissible={false} className="sw-form-error">
                  {formError}
                </Notice>
              )}
              <Button
                variant="primary"
                type="submit"
                isBusy={saving}
                disabled={!mod.activated || saving || changed.length === 0}
                __next40pxDefaultSize
              >
                {__('Save settings', 'siteward')}
              </Button>
            </form>
          )}
        </CardBody>
      </Card>
    </div>
  );
}
