/** The Monitor screen's Notifications card: whether e-mail alerts go out and to whom, the webhook, a test. */
import { Button } from '@wordpress/components';
import { TitledCard } from '../ui/TitledCard';
import { CheckboxRow, TextRow } from '../ui/form-rows';
import { __, sprintf } from '@wordpress/i18n';
import { useState } from 'react';
import { api } from '../api';
import { errorText, useNotify } from '../site';
import type { MonitorNotifications, MonitorTestAnswer } from '../types';

const M = '/siteward/v1/monitor';

function testResultText(r: { channel: string; ok: boolean; error?: string }): string {
  const channel = r.channel === 'email' ? __('E-mail', 'siteward') : __('Webhook', 'siteward');
  // translators: %s: a channel (E-mail, Webhook).
  if (r.ok) return sprintf(__('%s: sent', 'siteward'), channel);
  // translators: 1: a channel (E-mail, Webhook), 2: what went wrong.
  return sprintf(__('%1$s: failed (%2$s)', 'siteward'), channel, r.error ?? '');
}

export function NotificationsCard({
  settings,
  admins,
}: {
  settings: MonitorNotifications;
  admins: readonly { id: number; name: string }[];
}) {
  const { notify } = useNotify();
  const [chosen, setChosen] = useState<readonly number[] | null>(settings.administrators);
  const [emails, setEmails] = useState(settings.emails.join(', '));
  const [repeat, setRepeat] = useState(String(settings.repeatMinutes));
  const [email, setEmail] = useState(settings.email);
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<string | null>(null);
  const all = admins.map((a) => a.id);
  const save = async () => {
    setBusy(true);
    try {
      const list = emails
        .split(/[\s,;]+/)
        .map((e) => e.trim())
        .filter(Boolean);
      await api(`${M}/notifications`, {
        method: 'POST',
        data: { email, administrators: chosen, emails: list, repeatMinutes: Number(repeat) },
      });
      notify({ status: 'success', text: __('Notification settings saved.', 'siteward') });
    } catch (error) {
      // translators: %s: why the server refused.
      notify({ status: 'error', text: sprintf(__('Not saved: %s', 'siteward'), errorText(error)) });
    } finally {
      setBusy(false);
    }
  };
  const test = async () => {
    setResults(null);
    try {
      const answer = await api<MonitorTestAnswer>(`${M}/notifications/test`, { method: 'POST' });
      const sent = answer.results.map(testResultText).join(' · ');
      setResults(answer.note === undefined ? sent : `${sent}. ${answer.note}`);
    } catch (error) {
      setResults(errorText(error));
    }
  };
  return (
    <TitledCard title={__('Notifications', 'siteward')}>
      <p className="sw-help" data-testid="monitor-webhook">
        {settings.webhook
          ? __('Webhook: set (SITEWARD_MONITOR_WEBHOOK). It is called on every change, whether e-mail alerts are on or not.', 'siteward')
          : __('Webhook: none. Set SITEWARD_MONITOR_WEBHOOK to have one called on every change.', 'siteward')}
      </p>
      <CheckboxRow
        label={__('E-mail alerts about downtime', 'siteward')}
        help={__('When the site goes down and when it is back, to the people below.', 'siteward')}
        checked={email}
        onChange={setEmail}
        data-testid="monitor-email-alerts"
      />
      <fieldset className="sw-monitor-admins" data-testid="monitor-admins">
        <legend>{__('Administrators who get e-mails', 'siteward')}</legend>
        {admins.map((a) => (
          <CheckboxRow
            key={a.id}
            label={a.name}
            checked={chosen === null || chosen.includes(a.id)}
            onChange={(on) => {
              const current = chosen ?? all;
              setChosen(on ? [...current, a.id] : current.filter((id) => id !== a.id));
            }}
          />
        ))}
      </fieldset>
      <TextRow label={__('Other addresses', 'siteward')} help={__('Comma-separated', 'siteward')} value={emails} onChange={setEmails} />
      <TextRow
        label={__('Remind every (minutes) while still down', 'siteward')}
        help={__('0: no reminders', 'siteward')}
        type="number"
        min={0}
        value={repeat}
        onChange={setRepeat}
      />
      <div className="sw-actions">
        <Button variant="primary" onClick={() => void save()} isBusy={busy} disabled={busy} __next40pxDefaultSize>
          {__('Save', 'siteward')}
        </Button>
        <Button variant="secondary" onClick={() => void test()} __next40pxDefaultSize>
          {__('Send a test notification', 'siteward')}
        </Button>
      </div>
      {results !== null && (
        <p role="status" data-testid="monitor-test-result">
          {results}
        </p>
      )}
    </TitledCard>
  );
}
