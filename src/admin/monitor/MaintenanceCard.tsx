/** Maintenance windows: the list, and a form for a new one (once, weekly or by cron expression). */
import { Button, SelectControl } from '@wordpress/components';
import { TitledCard } from '../ui/TitledCard';
import { __, sprintf } from '@wordpress/i18n';
import { useState } from 'react';
import { api } from '../api';
import { errorText, useNotify } from '../site';
import type { MaintenanceWindowJson } from '../types';
import { CheckboxRow, TextRow } from '../ui/form-rows';
import { dateTime } from '../ui/format';
import { M } from './paths';
import { DAYS } from './words';

function describeWindow(w: MaintenanceWindowJson): string {
  // translators: 1: start, 2: end (dates and times).
  if (w.kind === 'once') return sprintf(__('%1$s – %2$s', 'siteward'), dateTime(w.starts), dateTime(w.ends));
  // translators: 1: weekdays, comma-separated, 2: time of day, 3: minutes.
  if (w.kind === 'weekly')
    return sprintf(__('Every %1$s at %2$s for %3$d min', 'siteward'), w.days.map((d) => DAYS[d]).join(', '), w.time, w.durationMinutes);
  // translators: 1: a cron expression, 2: minutes.
  return sprintf(__('Cron "%1$s" for %2$d min', 'siteward'), w.cron, w.durationMinutes);
}

export function MaintenanceCard({
  windows,
  timeZone,
  onChanged,
}: {
  windows: readonly MaintenanceWindowJson[];
  timeZone: string;
  onChanged: () => void;
}) {
  const { notify } = useNotify();
  const [kind, setKind] = useState<'once' | 'weekly' | 'cron'>('once');
  const [starts, setStarts] = useState('');
  const [ends, setEnds] = useState('');
  const [days, setDays] = useState<number[]>([0]);
  const [time, setTime] = useState('03:00');
  const [cron, setCron] = useState('0 3 * * 0');
  const [minutes, setMinutes] = useState('60');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const add = async () => {
    setBusy(true);
    const base = { kind, note };
    const body =
      kind === 'once'
        ? { ...base, starts: starts && new Date(starts).toISOString(), ends: ends && new Date(ends).toISOString() }
        : kind === 'weekly'
          ? { ...base, days, time, durationMinutes: Number(minutes) }
          : { ...base, cron, durationMinutes: Number(minutes) };
    try {
      await api(`${M}/maintenance`, { method: 'POST', data: body });
      notify({ status: 'success', text: __('The maintenance window is saved.', 'siteward') });
      onChanged();
    } catch (error) {
      // translators: %s: why the server refused.
      notify({ status: 'error', text: sprintf(__('The maintenance window was not saved: %s', 'siteward'), errorText(error)) });
    } finally {
      setBusy(false);
    }
  };
  const remove = async (id: number) => {
    try {
      await api(`${M}/maintenance/${id}`, { method: 'DELETE' });
      onChanged();
    } catch (error) {
      // translators: %s: why the server refused.
      notify({ status: 'error', text: sprintf(__('The window was not removed: %s', 'siteward'), errorText(error)) });
    }
  };
  return (
    <TitledCard title={__('Maintenance windows', 'siteward')}>
      {/* translators: %s: a time zone. */}
      <p className="sw-help">
        {sprintf(
          __(
            'Checks go on during a window, but no downtime is counted and nobody is notified. Times of recurring windows are in %s.',
            'siteward',
          ),
          timeZone,
        )}
      </p>
      {windows.length === 0 ? (
        <p data-testid="monitor-windows">{__('No maintenance windows.', 'siteward')}</p>
      ) : (
        <ul className="sw-facts" data-testid="monitor-windows">
          {windows.map((w) => (
            <li key={w.id}>
              {/* translators: 1: the window, 2: its note. */}
              {w.note ? sprintf(__('%1$s · %2$s', 'siteward'), describeWindow(w), w.note) : describeWindow(w)}{' '}
              <Button variant="link" isDestructive onClick={() => void remove(w.id)}>
                {__('Remove', 'siteward')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="sw-monitor-form"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <SelectControl
          __nextHasNoMarginBottom
          __next40pxDefaultSize
          label={__('Repeats', 'siteward')}
          value={kind}
          options={[
            { label: __('Once', 'siteward'), value: 'once' },
            { label: __('Weekly', 'siteward'), value: 'weekly' },
            { label: __('Cron expression', 'siteward'), value: 'cron' },
          ]}
          onChange={(v) => setKind(v as typeof kind)}
        />
        {kind === 'once' && (
          <>
            <TextRow label={__('Starts', 'siteward')} type="datetime-local" value={starts} onChange={setStarts} />
            <TextRow label={__('Ends', 'siteward')} type="datetime-local" value={ends} onChange={setEnds} />
          </>
        )}
        {kind === 'weekly' && (
          <fieldset className="sw-monitor-days">
            <legend>{__('Days', 'siteward')}</legend>
            {DAYS.map((label, day) => (
              <CheckboxRow
                key={label}
                label={label}
                checked={days.includes(day)}
                onChange={(on) => setDays(on ? [...days, day] : days.filter((d) => d !== day))}
              />
            ))}
          </fieldset>
        )}
        {kind === 'weekly' && <TextRow label={__('At (HH:MM)', 'siteward')} value={time} onChange={setTime} />}
        {kind === 'cron' && (
          <TextRow label={__('Cron expression (minute hour day month weekday)', 'siteward')} value={cron} onChange={setCron} />
        )}
        {kind !== 'once' && (
          <TextRow label={__('Lasts (minutes)', 'siteward')} type="number" min={1} value={minutes} onChange={setMinutes} />
        )}
        <TextRow label={__('Note', 'siteward')} value={note} onChange={setNote} />
        <div className="sw-actions">
          <Button variant="primary" type="submit" isBusy={busy} disabled={busy} __next40pxDefaultSize>
            {__('Add window', 'siteward')}
          </Button>
        </div>
      </form>
    </TitledCard>
  );
}
