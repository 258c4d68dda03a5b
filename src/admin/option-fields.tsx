/**
 * A module option's form field, chosen from its schema (`type`, `enum`) and the shape of its value:
 * a toggle, a select, a text box, a token field for a list of strings, one token field per key
 * for an object of lists (sharing services' visible and hidden), one text box per key for an
 * object of strings (a new custom sharing service), lines for Protect's allow list; JSON text
 * only for a shape none of these fit. The option catalogue's label and help (`option_texts`)
 * name and explain it; a refused value shows the option's rule, never the API's raw message.
 */
import { FormTokenField, SelectControl, TextControl, TextareaControl, ToggleControl } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';
import type { ReactNode } from 'react';
import type { ModuleOption, OptionTexts, WireJson } from './types';

export type DraftValue =
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'text'; readonly value: string }
  /** A string option the API reads back as `{local: [...]}` (Protect's allow list, one entry a line). */
  | { readonly kind: 'lines'; readonly value: string }
  | { readonly kind: 'tokens'; readonly value: readonly string[] }
  | { readonly kind: 'token-groups'; readonly value: Readonly<Record<string, readonly string[]>> }
  | { readonly kind: 'text-group'; readonly value: Readonly<Record<string, string>> }
  | { readonly kind: 'json'; readonly value: string };

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((item) => typeof item === 'string');
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function toDraft(option: ModuleOption): DraftValue {
  const v = option.current_value;
  if (option.type === 'boolean') return { kind: 'boolean', value: v === true || v === 1 || v === '1' || v === 'true' };
  if (option.type === 'array' || option.type === 'object') {
    const shape = v ?? option.default ?? null;
    if (isStrings(shape)) return { kind: 'tokens', value: shape };
    if (isRecord(shape) && Object.keys(shape).length > 0) {
      const values = Object.values(shape);
      if (values.every(isStrings)) return { kind: 'token-groups', value: shape as Record<string, string[]> };
      if (values.every((item) => typeof item === 'string')) return { kind: 'text-group', value: shape as Record<string, string> };
    }
    return { kind: 'json', value: JSON.stringify(shape, null, 1) };
  }
  if (isRecord(v) && isStrings(v.local)) return { kind: 'lines', value: v.local.join('\n') };
  return { kind: 'text', value: v === null || v === undefined || v === false ? '' : String(v) };
}

export const sameDraft = (a: DraftValue, b: DraftValue) => JSON.stringify(a) === JSON.stringify(b);

/** The value to send, or an Error with a message for the field. */
export function fromDraft(option: ModuleOption, draft: DraftValue): WireJson | Error {
  switch (draft.kind) {
    case 'boolean':
    case 'text-group':
    case 'lines':
      return draft.value;
    case 'tokens':
      return [...draft.value];
    case 'token-groups':
      return Object.fromEntries(Object.entries(draft.value).map(([key, list]) => [key, [...list]]));
    case 'json':
      try {
        return JSON.parse(draft.value) as WireJson;
      } catch {
        return new Error(__('This must be valid JSON.', 'siteward'));
      }
    case 'text': {
      const text = draft.value;
      if (option.type === 'integer' || option.type === 'number')
        return text.trim() === '' ? text : Number.isFinite(Number(text)) ? Number(text) : text;
      return text;
    }
  }
}

/** What the API reads back after `sent` was saved: Protect's allow list comes back as `{local: [entries]}`. */
export function readBack(option: ModuleOption, sent: WireJson): WireJson {
  if (isRecord(option.current_value) && isStrings(option.current_value.local) && typeof sent === 'string') {
    return {
      local: sent
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== ''),
    };
  }
  return sent;
}

/** `sharing_name` → "Name" when every key shares the `sharing_` prefix; `visible` → "Visible". */
function keyLabel(key: string, keys: readonly string[]): string {
  const prefix = /^[a-z]+_/.exec(keys[0] ?? '')?.[0];
  const bare = prefix && keys.every((k) => k.startsWith(prefix)) ? key.slice(prefix.length) : key;
  const words = bare.replace(/[_-]+/g, ' ').replace(/\burl\b/g, 'URL');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const tokenTexts = (tokens: readonly (string | { value: string })[]) => tokens.map((t) => (typeof t === 'string' ? t : t.value));

/**
 * One option's field. `texts` (the module record's `option_texts`) give the label and the help;
 * `error` is already in plain words (the option's rule, or the page's own message).
 */
export function OptionField({
  name,
  option,
  texts,
  draft,
  error,
  onChange,
}: {
  name: string;
  option: ModuleOption;
  texts?: OptionTexts;
  draft: DraftValue;
  error?: string;
  onChange: (d: DraftValue) => void;
}) {
  const label = texts?.label || option.description || name;
  const id = `option-${name.replace(/[^a-zA-Z0-9_-]/g, '-')}`;
  const message = error ? (
    <span className="sw-field-error" role="alert" id={`${id}-error`}>
      {error}
    </span>
  ) : texts?.help ? (
    <span className="sw-field-help" id={`${id}-help`}>
      {texts.help}
    </span>
  ) : undefined;
  let control: ReactNode;
  switch (draft.kind) {
    case 'boolean':
      control = (
        <ToggleControl
          __nextHasNoMarginBottom
          label={label}
          checked={draft.value}
          onChange={(value) => onChange({ kind: 'boolean', value })}
          help={message}
        />
      );
      break;
    case 'tokens':
      control = (
        <FormTokenField
          __next40pxDefaultSize
          __nextHasNoMarginBottom
          label={label}
          value={[...draft.value]}
          onChange={(tokens) => onChange({ kind: 'tokens', value: tokenTexts(tokens) })}
          tokenizeOnBlur
          help={message}
        />
      );
      break;
    case 'token-groups': {
      const keys = Object.keys(draft.value);
      control = (
        <fieldset className="sw-subfields">
          <legend className="sw-subfields-legend">{label}</legend>
          {keys.map((key) => (
            <FormTokenField
              key={key}
              __next40pxDefaultSize
              __nextHasNoMarginBottom
              label={keyLabel(key, keys)}
              value={[...(draft.value[key] ?? [])]}
              onChange={(tokens) => onChange({ kind: 'token-groups', value: { ...draft.value, [key]: tokenTexts(tokens) } })}
              tokenizeOnBlur
            />
          ))}
          {message}
        </fieldset>
      );
      break;
    }
    case 'text-group': {
      const keys = Object.keys(draft.value);
      control = (
        <fieldset className="sw-subfields">
          <legend className="sw-subfields-legend">{label}</legend>
          {keys.map((key) => (
            <TextControl
              key={key}
              __next40pxDefaultSize
              __nextHasNoMarginBottom
              label={keyLabel(key, keys)}
              value={draft.value[key] ?? ''}
              onChange={(value) => onChange({ kind: 'text-group', value: { ...draft.value, [key]: value } })}
            />
          ))}
          {message}
        </fieldset>
      );
      break;
    }
    case 'lines':
      control = (
        <TextareaControl
          __nextHasNoMarginBottom
          label={label}
          value={draft.value}
          onChange={(value) => onChange({ kind: 'lines', value })}
          help={message ?? __('One entry a line.', 'siteward')}
          rows={4}
        />
      );
      break;
    case 'json':
      // translators: %s: the option's label.
      control = (
        <TextareaControl
          __nextHasNoMarginBottom
          label={sprintf(__('%s (JSON)', 'siteward'), label)}
          value={draft.value}
          onChange={(value) => onChange({ kind: 'json', value })}
          help={message}
          rows={3}
        />
      );
      break;
    case 'text':
      control =
        option.enum && Object.keys(option.enum).length > 0 ? (
          <SelectControl
            __next40pxDefaultSize
            __nextHasNoMarginBottom
            label={label}
            value={draft.value}
            onChange={(value) => onChange({ kind: 'text', value })}
            options={Object.entries(option.enum).map(([v, l]) => ({ value: v, label: l || v }))}
            help={message}
          />
        ) : (
          <TextControl
            __next40pxDefaultSize
            __nextHasNoMarginBottom
            label={label}
            id={id}
            type={option.type === 'integer' || option.type === 'number' ? 'number' : 'text'}
            value={draft.value}
            onChange={(value) => onChange({ kind: 'text', value })}
            help={message}
            aria-invalid={error ? true : undefined}
          />
        );
      break;
  }
  return (
    <div className={`sw-field${error ? ' sw-field-invalid' : ''}`} data-testid={`field-${name}`}>
      {control}
    </div>
  );
}
