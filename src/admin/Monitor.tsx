/**
 * The Monitor screen: each check with its state, uptime over 24 h / 7 d / 30 d / 365 d and
 * certificate; the response-time chart and downtimes of the chosen check; the checks, the
 * maintenance windows and who is notified, each editable; a test notification.
 */
import { Button, Card, CardBody, CardHeader, CheckboxControl, SelectControl, Spinner, TextControl } from '@wordpress/components';
import { __, _n, sprintf } from '@wordpress/i18n';
import { addQueryArgs } from '@wordpress/url';
import { useState } from 'react';
import { api } from './api';
import { NotificationsCard } from './MonitorNotifications';
import { Timeline } from './charts';
import { checkStateLabel, duration } from './Dashboard';
import { useLoad } from './hooks';
import { errorText, useConnection, useModules, useNotify } from './site';
import { UnavailableReason } from './UnavailableReason';
import type { MaintenanceWindowJson, MonitorCheck, MonitorCheckHistory, MonitorOverview } from './types';

const M = '/siteward/v1/monitor';

type CheckStatus = MonitorCheck;
type Window = MaintenanceWindowJson;
type History = MonitorCheckHistory;

/** Short weekday names in the page's language (day 0 is Sunday, as the API counts). */
const DAYS = Array.from({ length: 7 }, (_, day) =>
  new Date(Date.UTC(2023, 0, 1 + day)).toLocaleDateString(undefined, { weekday: 'short', timeZone: 'UTC' }),
);
const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
/** The server's reasons give times in ISO 8601 ("certificate expired on 2026-…Z"): shown as the page's dates. */
const humanTimes = (text: string) => text.replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, when);
// translators: %s: a percentage.
const pct = (v: number | null) => (v === null ? '—' : sprintf(__('%s %%', 'siteward'), v.toFixed(v === 100 ? 0 : 2)));

const UPTIME_PERIODS: readonly (readonly ['24h' | '7d' | '30d' | '365d', () => string])[] = [
  ['24h', () => __('Uptime 24h', 'siteward')],
  ['7d', () => __('Uptime 7d', 'siteward')],
  ['30d', () => __('Uptime 30d', 'siteward')],
  ['365d', () => __('Uptime 365d', 'siteward')],
];

export function MonitorScreen() {
  const { modules } = useModules();
  const { connection } = useConnection();
  const on = modules.monitor?.activated === true;
  const overview = useLoad<MonitorOverview>(on ? 'monitor' : null, () => api<MonitorOverview>(M));
  const [selected, setSelected] = useState(1);
  // Said as At a Glance and Modules say it: a switch that cannot work is not offered.
  if (modules.monitor !== undefined && !modules.monitor.available) {
    return (
      <Card className="sw-card">
        <CardBody size="small">
          <UnavailableReason mod={modules.monitor} offline={connection.devMode.isActive} />
        </CardBody>
      </Card>
    );
  }
  if (!on) {
    return (
      <Card className="sw-card">
        <CardBody size="small">
          <p data-testid="monitor-off">
            {__('Monitor is off.', 'siteward')} <a href="#/modules/monitor">{__('Turn it on', 'siteward')}</a>{' '}
            {__('to check the site and keep its history.', 'siteward')}
          </p>
        </CardBody>
      </Card>
    );
  }
  if (overview.state === 'loading') {
    return (
      <p role="status">
        <Spinner /> {__('Loading the monitor…', 'siteward')}
      </p>
    );
  }
  if (overview.state === 'error') {
    return (
      <p role="alert">
        {overview.error.message}{' '}
        <Button variant="link" onClick={overview.reload}>
          {__('Try again', 'siteward')}
        </Button>
      </p>
    );
  }
  const data = overview.data;
  return (
    <div className="sw-stack sw-monitor-screen" data-testid="monitor-screen">
      {data.maintenance.current && (
        <p className="sw-monitor-maintenance" role="status">
          {/* translators: %s: date and time. */}
          {sprintf(
            __('Maintenance until %s: checks run, downtime is not counted and nobody is notified.', 'siteward'),
            when(data.maintenance.current.until),
          )}
        </p>
      )}
      <div className="sw-monitor-checks">
        {data.checks.map((check) => (
          <CheckCard
            key={check.id}
            check={check}
            selected={selected === check.id}
            onSelect={() => setSelected(check.id)}
            onChanged={overview.reload}
          />
        ))}
      </div>
      <HistoryCard checkId={selected} url={data.checks.find((c) => c.id === selected)?.url ?? ''} />
      <div className="sw-monitor-settings">
        <AddCheckCard count={data.checks.length} onAdded={overview.reload} />
        <MaintenanceCard windows={data.maintenance.windows} timeZone={data.timeZone} onChanged={overview.reload} />
        <NotificationsCard settings={data.notifications} admins={data.administrators} />
      </div>
    </div>
  );
}

function CheckCard({
  check,
  selected,
  onSelect,
  onChanged,
}: {
  check: CheckStatus;
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
            {sprintf(__('Down since %1$s: %2$s', 'siteward'), when(check.downSince), humanTimes(check.lastError ?? ''))}
          </p>
        )}
        <dl className="sw-monitor-uptime" data-testid="monitor-uptime">
          {UPTIME_PERIODS.map(([period, label]) => (
            <div key={period}>
              <dt>{label()}</dt>
              <dd>{pct(check.uptime[period])}</dd>
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
                sprintf(__('Certificate expired on %s.', 'siteward'), when(cert.validTo))
              : cert.error !== null
                ? // translators: 1: why it is not trusted, 2: date and time.
                  sprintf(__('Certificate not trusted (%1$s); valid until %2$s.', 'siteward'), cert.error, when(cert.validTo))
                : // translators: 1: date and time, 2: days left.
                  sprintf(
                    _n('Certificate valid until %1$s (%2$d day).', 'Certificate valid until %1$s (%2$d days).', cert.daysLeft, 'siteward'),
                    when(cert.validTo),
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

type CheckBody = { url?: string; expectedStatus: string; keyword: string | null; keywordAbsent: boolean; slowMs: number | null };

function CheckForm({
  initial,
  withUrl,
  submitLabel,
  onSubmit,
}: {
  initial: Partial<CheckStatus>;
  withUrl: boolean;
  submitLabel: string;
  onSubmit: (body: CheckBody) => Promise<void>;
}) {
  const { notify } = useNotify();
  const [url, setUrl] = useState(initial.url ?? '');
  const [expected, setExpected] = useState(initial.expectedStatus ?? '');
  const [keyword, setKeyword] = useState(initial.keyword ?? '');
  const [absent, setAbsent] = useState(initial.keywordAbsent ?? false);
  const [slow, setSlow] = useState(initial.slowMs === null || initial.slowMs === undefined ? '' : String(initial.slowMs));
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      await onSubmit({
        ...(withUrl ? { url } : {}),
        expectedStatus: expected,
        keyword: keyword === '' ? null : keyword,
        keywordAbsent: absent,
        slowMs: slow === '' ? null : Number(slow),
      });
      notify({ status: 'success', text: __('The check is saved.', 'siteward') });
    } catch (error) {
      // translators: %s: why the server refused.
      notify({ status: 'error', text: sprintf(__('The check was not saved: %s', 'siteward'), errorText(error)) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="sw-monitor-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {withUrl && (
        <TextControl
          __nextHasNoMarginBottom
          __next40pxDefaultSize
          label={__('URL (of this site: its API, its CDN…)', 'siteward')}
          type="url"
          value={url}
          onChange={setUrl}
          required
        />
      )}
      <TextControl
        __nextHasNoMarginBottom
        __next40pxDefaultSize
        label={__('Expected status', 'siteward')}
        help={__('e.g. 200, 2xx, 200-299; empty: 2xx and 3xx', 'siteward')}
        value={expected}
        onChange={setExpected}
      />
      <TextControl
        __nextHasNoMarginBottom
        __next40pxDefaultSize
        label={__('Keyword in the page', 'siteward')}
        help={__('Optional', 'siteward')}
        value={keyword}
        onChange={setKeyword}
      />
      <CheckboxControl
        __nextHasNoMarginBottom
        label={__('Down when the keyword IS on the page (e.g. an error message)', 'siteward')}
        checked={absent}
        onChange={setAbsent}
      />
      <TextControl
        __nextHasNoMarginBottom
        __next40pxDefaultSize
        label={__('Slow above (ms)', 'siteward')}
        type="number"
        min={1}
        value={slow}
        onChange={setSlow}
      />
      <div className="sw-actions">
        <Button variant="primary" type="submit" isBusy={busy} disabled={busy} __next40pxDefaultSize>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

function AddCheckCard({ count, onAdded }: { count: number; onAdded: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <Card className="sw-card">
      <CardHeader size="small">
        <h2 className="sw-card-title">{__('More URLs of this site', 'siteward')}</h2>
      </CardHeader>
      <CardBody size="small">
        {/* translators: %d: how many more URLs are checked now. */}
        <p className="sw-help">{sprintf(__('Up to 5 more URLs, each with its own history (%d now).', 'siteward'), count - 1)}</p>
        {open ? (
          <CheckForm
            initial={{}}
            withUrl
            submitLabel={__('Add check', 'siteward')}
            onSubmit={async (body) => {
              await api(`${M}/checks`, { method: 'POST', data: body });
              setOpen(false);
              onAdded();
            }}
          />
        ) : (
          <Button variant="secondary" onClick={() => setOpen(true)} disabled={count > 5} __next40pxDefaultSize>
            {__('Add a URL', 'siteward')}
          </Button>
        )}
      </CardBody>
    </Card>
  );
}

function HistoryCard({ checkId, url }: { checkId: number; url: string }) {
  const [days, setDays] = useState<'1' | '7' | '30' | '365'>('1');
  const history = useLoad<History>(`${checkId}/${days}`, () => api<History>(addQueryArgs(`${M}/checks/${checkId}/history`, { days })));
  return (
    <Card className="sw-card sw-monitor-history">
      <CardHeader size="small">
        {/* translators: %s: a URL. */}
        <h2 className="sw-card-title sw-monitor-url">{sprintf(__('Response time · %s', 'siteward'), url)}</h2>
        <SelectControl
          __nextHasNoMarginBottom
          __next40pxDefaultSize
          label={__('Period', 'siteward')}
          hideLabelFromVision
          value={days}
          options={[
            { label: __('Last 24 hours', 'siteward'), value: '1' },
            { label: __('Last 7 days', 'siteward'), value: '7' },
            { label: __('Last 30 days', 'siteward'), value: '30' },
            { label: __('Last 365 days', 'siteward'), value: '365' },
          ]}
          onChange={(v) => setDays(v)}
        />
      </CardHeader>
      <CardBody size="small">
        {history.state === 'loading' ? (
          <p role="status">
            <Spinner /> {__('Loading…', 'siteward')}
          </p>
        ) : history.state === 'error' ? (
          <p role="alert">{history.error.message}</p>
        ) : (
          <>
            <ResponseChart points={history.data.points} />
            <Timeline
              intervals={history.data.downtimes}
              noData={history.data.noData}
              monitoredSince={history.data.monitoredSince}
              days={Number(days)}
            />
            <h3 className="sw-subtitle">{__('Downtimes', 'siteward')}</h3>
            {history.data.downtimes.length === 0 ? (
              <p data-testid="monitor-downtimes">{__('No downtime in this period.', 'siteward')}</p>
            ) : (
              <ul className="sw-facts" data-testid="monitor-downtimes">
                {history.data.downtimes.map((d) => (
                  <li key={d.start}>
                    {sprintf(
                      d.end === null
                        ? // translators: 1: when it went down, 2: for how long so far, 3: why.
                          __('%1$s · %2$s (still down) · %3$s', 'siteward')
                        : // translators: 1: when it went down, 2: for how long, 3: why.
                          __('%1$s · %2$s · %3$s', 'siteward'),
                      when(d.start),
                      duration(d.duration),
                      humanTimes(d.reason),
                    )}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </CardBody>
    </Card>
  );
}

function ResponseChart({ points }: { points: History['points'] }) {
  const width = 600;
  const height = 120;
  const measured = points.filter((p) => p.ms !== null);
  if (measured.length === 0) return <p data-testid="monitor-chart">{__('No response times in this period yet.', 'siteward')}</p>;
  const max = Math.max(1, ...measured.map((p) => p.ms ?? 0));
  const t0 = Date.parse(points[0]!.at);
  const t1 = Math.max(t0 + 1, Date.parse(points[points.length - 1]!.at));
  const x = (at: string) => ((Date.parse(at) - t0) / (t1 - t0)) * width;
  const y = (ms: number) => height - (ms / max) * (height - 6);
  const line = measured.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.at).toFixed(1)},${y(p.ms ?? 0).toFixed(1)}`).join(' ');
  const average = Math.round(measured.reduce((s, p) => s + (p.ms ?? 0), 0) / measured.length);
  const failed = points.reduce((n, p) => n + p.down, 0);
  return (
    <figure className="sw-chart">
      {/* translators: 1: average milliseconds, 2: highest milliseconds. */}
      <figcaption className="sw-chart-caption">{sprintf(__('Average %1$d ms · highest %2$d ms', 'siteward'), average, max)}</figcaption>
      <svg
        viewBox={`0 0 ${width} ${height + 4}`}
        role="img"
        // translators: 1: average milliseconds, 2: highest milliseconds, 3: how many checks failed.
        aria-label={sprintf(
          _n(
            'Response time: average %1$d ms, highest %2$d ms, %3$d failed check',
            'Response time: average %1$d ms, highest %2$d ms, %3$d failed checks',
            failed,
            'siteward',
          ),
          average,
          max,
          failed,
        )}
        data-testid="monitor-chart"
      >
        <line x1="0" y1={height} x2={width} y2={height} className="sw-chart-axis" />
        {points
          .filter((p) => p.down > 0)
          .map((p) => (
            <rect key={p.at} x={Math.min(width - 3, x(p.at))} y="0" width="3" height={height} className="sw-chart-down" />
          ))}
        <path d={line} className="sw-chart-line" fill="none" />
      </svg>
    </figure>
  );
}

function describeWindow(w: Window): string {
  // translators: 1: start, 2: end (dates and times).
  if (w.kind === 'once') return sprintf(__('%1$s – %2$s', 'siteward'), when(w.starts), when(w.ends));
  // translators: 1: weekdays, comma-separated, 2: time of day, 3: minutes.
  if (w.kind === 'weekly')
    return sprintf(__('Every %1$s at %2$s for %3$d min', 'siteward'), w.days.map((d) => DAYS[d]).join(', '), w.time, w.durationMinutes);
  // translators: 1: a cron expression, 2: minutes.
  return sprintf(__('Cron "%1$s" for %2$d min', 'siteward'), w.cron, w.durationMinutes);
}

function MaintenanceCard({ windows, timeZone, onChanged }: { windows: readonly Window[]; timeZone: string; onChanged: () => void }) {
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
    <Card className="sw-card">
      <CardHeader size="small">
        <h2 className="sw-card-title">{__('Maintenance windows', 'siteward')}</h2>
      </CardHeader>
      <CardBody size="small">
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
              <TextControl
                __nextHasNoMarginBottom
                __next40pxDefaultSize
                label={__('Starts', 'siteward')}
                type="datetime-local"
                value={starts}
                onChange={setStarts}
              />
              <TextControl
                __nextHasNoMarginBottom
                __next40pxDefaultSize
                label={__('Ends', 'siteward')}
                type="datetime-local"
                value={ends}
                onChange={setEnds}
              />
            </>
          )}
          {kind === 'weekly' && (
            <fieldset className="sw-monitor-days">
              <legend>{__('Days', 'siteward')}</legend>
              {DAYS.map((label, day) => (
                <CheckboxControl
                  key={label}
                  __nextHasNoMarginBottom
                  label={label}
                  checked={days.includes(day)}
                  onChange={(on) => setDays(on ? [...days, day] : days.filter((d) => d !== day))}
                />
              ))}
            </fieldset>
          )}
          {kind === 'weekly' && (
            <TextControl
              __nextHasNoMarginBottom
              __next40pxDefaultSize
              label={__('At (HH:MM)', 'siteward')}
              value={time}
              onChange={setTime}
            />
          )}
          {kind === 'cron' && (
            <TextControl
              __nextHasNoMarginBottom
              __next40pxDefaultSize
              label={__('Cron expression (minute hour day month weekday)', 'siteward')}
              value={cron}
              onChange={setCron}
            />
          )}
          {kind !== 'once' && (
            <TextControl
              __nextHasNoMarginBottom
              __next40pxDefaultSize
              label={__('Lasts (minutes)', 'siteward')}
              type="number"
              min={1}
              value={minutes}
              onChange={setMinutes}
            />
          )}
          <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label={__('Note', 'siteward')} value={note} onChange={setNote} />
          <div className="sw-actions">
            <Button variant="primary" type="submit" isBusy={busy} disabled={busy} __next40pxDefaultSize>
              {__('Add window', 'siteward')}
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}
