/**
 * Form rows in the page's one style (the component library's 40 px controls without bottom
 * margins): a text field, a checkbox, and a fieldset of checkboxes choosing ids.
 */
import { CheckboxControl, TextControl } from '@wordpress/components';
import type { ComponentProps } from 'react';

type TextProps = Omit<ComponentProps<typeof TextControl>, '__nextHasNoMarginBottom' | '__next40pxDefaultSize'>;

export function TextRow(props: TextProps) {
  return <TextControl __nextHasNoMarginBottom __next40pxDefaultSize {...props} />;
}

type CheckboxProps = Omit<ComponentProps<typeof CheckboxControl>, '__nextHasNoMarginBottom'>;

export function CheckboxRow(props: CheckboxProps) {
  return <CheckboxControl __nextHasNoMarginBottom {...props} />;
}

/** A fieldset of checkboxes, one per choice; `chosen` holds the ids checked. */
export function ChoiceList<Id extends string | number>({
  legend,
  choices,
  chosen,
  onChange,
  className = 'sw-monitor-admins',
  testId,
}: {
  legend: string;
  choices: readonly { readonly id: Id; readonly name: string }[];
  chosen: readonly Id[];
  onChange: (chosen: Id[]) => void;
  className?: string;
  testId?: string;
}) {
  return (
    <fieldset className={className} data-testid={testId}>
      <legend>{legend}</legend>
      {choices.map((c) => (
        <CheckboxRow
          key={c.id}
          label={c.name}
          checked={chosen.includes(c.id)}
          onChange={(on) => onChange(on ? [...chosen, c.id] : chosen.filter((id) => id !== c.id))}
        />
      ))}
    </fieldset>
  );
}
