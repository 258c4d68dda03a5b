/** One check of the Monitor screen: its state, uptimes, certificate, hosts, and its settings form. */
import { Button, Card, CardBody, CardHeader } from '@wordpress/components';
import { __, _n, sprintf } from '@wordpress/i18n';
import { useState } from 'react';
import { api } from '../api';
import { errorText, useNotify } from '../site';
import type { MonitorCheck } from '../types';
import { dateTime, humanTimes, percent } from '../ui/format';
import { CheckForm } from './CheckForm';
import { M } from './paths';
import { checkStateLabel } from './words';

const UPTIME_PERIODS: readonly (readonly ['24h' | '7d' | '30d' | '365d', () => string])[] = [
  ['24h', () => __('Uptime 24h', 'siteward')],
  ['7d', () => __('Uptime 7d', 'siteward')],
  ['30d', () => __('Uptime 30d', 'siteward')],
  ['365d', () => __('Uptime 365d', 'siteward')],
];

export function CheckCard({
  check,
  selected,
  onSelect,
  onChanged,
}: {
  check: MonitorCheck;
  selected: boolean;
  onSelect: () => void;
  onChanged: () => void;
}) {
  const { notify } = useNotify();
  const [editing, setEditing] = useState(false);
  const remove = async () => {
    try {
      await api(`${M}/checks/${check.id}`, { method: 'DELETE' });
      // translators: %s: a URL.
      notify({ status: 'success', text: sprintf(__('%s is no longer checked.', 'siteward'), check.url) });
      onChanged();
    } catch (error) {
      // translators: %s: why the server refused.
      notify({ status: 'error', text: sprintf(__('The check was not removed: %s', 'siteward'), errorText(error)) });
    }
  };
  const cert = check.certificate;
  return (
    <Card className="sw-card" data-testid={`monitor-check-${check.id}`}>
      <CardHeader size="small">
        {/* translators: %s: the site's URL. */}
        <h2 className="sw-card-title sw-monitor-url">{check.site ? sprintf(__('Site · %s', 'siteward'), check.url) : check.url}</h2>
        <span className={`sw-badge sw-badge-${check.state}`} data-testid="monitor-state">
          {checkStateLabel(check.state, check.maintenance)}
        </span>
      </CardHeader>
      <CardBody size="small">
        {check.state === 'down' && check.downSince && (
          <p className="sw-status-down" data-testid="monitor-down-since">
            {/* translators: 1: date and time, 2: what failed. */}
            {sprintf(__('Down since %1$s: %2$s', 'siteward'), dateTime(check.downSince), humanTimes(check.lastError ?? ''))}
          </p>
        )}
        <dl className="sw-monitor-uptime" data-testid="monitor-uptime">
          {UPTIME_PERIODS.map(([period, label]) => (
            <div key={period}>
              <dt>{label()}</dt>
              <dd>{percent(check.uptime[period])}</dd>
            </div>
          ))}
          <div>
            <dt>{__('Last response', 'siteward')}</dt>
            {/* translators: %d: milliseconds. */}
            <dd>{check.lastResponseMs === null ? '—' : sprintf(__('%d ms', 'siteward'), check.lastResponseMs)}</dd>
          </div>
        </dl>
        {cert && (
          <p data-testid="monitor-certificate" className={cert.error !== null || cert.daysLeft < 14 ? 'sw-status-down' : undefined}>
            {cert.daysLeft < 0
              ? // translators: %s: date and time.
                sprintf(__('Certificate expired on %s.', 'siteward'), dateTime(cert.validTo))
              : cert.error !== null
                ? // translators: 1: why it is not trusted, 2: date and time.
                  sprintf(__('Certificate not trusted (%1$s); valid until %2$s.', 'siteward'), cert.error, dateTime(cert.validTo))
                : // translators: 1: date and time, 2: days left.
                  sprintf(
                    _n('Certificate valid until %1$s (%2$d day).', 'Certificate valid until %1$s (%2$d days).', cert.daysLeft, 'siteward'),
                    dateTime(cert.validTo),
                    cert.daysLeft,
                  )}
          </p>
        )}
        {check.hosts.length > 1 && (
          <p className="sw-help">
            {sprintf(
              // translators: 1: how many hosts, 2: each host with its state, comma-separated.
              __('Seen by %1$d hosts: %2$s.', 'siteward'),
              check.hosts.length,
              // translators: %s: a host name.
              check.hosts.map((h) => sprintf(h.down ? __('%s down', 'siteward') : __('%s up', 'siteward'), h.host)).join(', '),
            )}
          </p>
        )}
        <div className="sw-actions">
          <Button variant={selected ? 'primary' : 'secondary'} onClick={onSelect} aria-pressed={selected} __next40pxDefaultSize>
            {__('Show history', 'siteward')}
          </Button>
          <Button variant="tertiary" onClick={() => setEditing(!editing)} aria-expanded={editing} __next40pxDefaultSize>
            {__('Check settings', 'siteward')}
          </Button>
          {!check.site && (
            <Button variant="tertiary" isDestructive onClick={() => void remove()} __next40pxDefaultSize>
              {__('Remove', 'siteward')}
            </Button>
          )}
        </div>
        {editing && (
          <CheckForm
            initial={check}
            withUrl={!check.site}
            submitLabel={__('Save check', 'siteward')}
            onSubmit={async (body) => {
              await api(`${M}/checks/${check.id}`, { method: 'POST', data: body });
              setEditing(false);
              onChanged();
            }}
          />
        )}
      </CardBody>
    </Card>
  );
}
