/**
 * The Monitor screen: each check with its state, uptime over 24 h / 7 d / 30 d / 365 d and
 * certificate; the response-time chart and downtimes of the chosen check; the checks, the
 * maintenance windows and who is notified, each editable; a test notification.
 */
import { Button, Card, CardBody, CardHeader, CheckboxControl, SelectControl, Spinner, TextControl } from '@wordpress/components';
import { useState } from 'react';
import { api } from './api';
import { useLoad } from './hooks';
import { errorText, useSite } from './site';

const M = '/siteward/v1/monitor';

interface CheckStatus {
  id: number;
  site: boolean;
  url: string;
  expectedStatus: string;
  keyword: string | null;
  keywordAbsent: boolean;
  slowMs: number | null;
  state: 'up' | 'down' | 'unknown';
  downSince: string | null;
  lastError: string | null;
  lastResponseMs: number | null;
  uptime: Record<'24h' | '7d' | '30d' | '365d', number | null>;
  certificate: { validTo: string; daysLeft: number; subject: string; issuer: string; error: string | null } | null;
  hosts: { host: string; down: boolean; at: string; reason: string | null }[];
}
type Window =
  | { id: number; kind: 'once'; starts: string; ends: string; note: string }
  | { id: number; kind: 'weekly'; days: number[]; time: string; durationMinutes: number; note: string }
  | { id: number; kind: 'cron'; cron: string; durationMinutes: number; note: string };
interface Notifications {
  administrators: number[] | null;
  emails: string[];
  repeatMinutes: number;
}
interface Overview {
  active: boolean;
  timeZone: string;
  checks: CheckStatus[];
  maintenance: { current: (Window & { until: string }) | null; windows: Window[] };
  notifications: Notifications;
  administrators: { id: number; name: string }[];
}
interface History {
  days: number;
  points: { at: string; ms: number | null; checks: number; down: number; slow: number }[];
  downtimes: { start: string; end: string | null; duration: number; reason: string }[];
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const pct = (v: number | null) => (v === null ? '—' : `${v.toFixed(v === 100 ? 0 : 2)} %`);

function lasted(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

export function MonitorScreen() {
  const { modules } = useSite();
  const on = modules.monitor?.activated === true;
  const overview = useLoad<Overview>(on ? 'monitor' : null, () => api<Overview>(M));
  const [selected, setSelected] = useState(1);
  if (!on) {
    return (
      <Card className="sw-card">
        <CardBody size="small">
          <p data-testid="monitor-off">
            Monitor is off. <a href="#/modules/monitor">Turn it on</a> to check the site and keep its history.
          </p>
        </CardBody>
      </Card>
    );
  }
  if (overview.state === 'loading') {
    return (
      <p role="status">
        <Spinner /> Loading the monitor…
      </p>
    );
  }
  if (overview.state === 'error') {
    return (
      <p role="alert">
        {overview.error.message}{' '}
        <Button variant="link" onClick={overview.reload}>
          Try again
        </Button>
      </p>
    );
  }
  const data = overview.data;
  return (
    <div className="sw-stack" data-testid="monitor-screen">
      {data.maintenance.current && (
        <p className="sw-monitor-maintenance" role="status">{`Maintenance until ${when(data.maintenance.current.until)}: checks run, downtime is not counted and nobody is notified.`}</p>
      )}
      <div className="sw-monitor-checks">
        {data.checks.map((check) => (
          <CheckCard key={check.id} check={check} selected={selected === check.id} onSelect={() => setSelected(check.id)} onChanged={overview.reload} />
        ))}
      </div>
      <HistoryCard checkId={selected} url={data.checks.find((c) => c.id === selected)?.url ?? ''} />
      <AddCheckCard count={data.checks.length} onAdded={overview.reload} />
      <MaintenanceCard windows={data.maintenance.windows} timeZone={data.timeZone} onChanged={overview.reload} />
      <NotificationsCard settings={data.notifications} admins={data.administrators} />
    </div>
  );
}

function CheckCard({ check, selected, onSelect, onChanged }: { check: CheckStatus; selected: boolean; onSelect: () => void; onChanged: () => void }) {
  const { notify } = useSite();
  const [editing, setEditing] = useState(false);
  const remove = async () => {
    try {
      await api(`${M}/checks/${check.id}`, { method: 'DELETE' });
      notify({ status: 'success', text: `${check.url} is no longer checked.` });
      onChanged();
    } catch (error) {
      notify({ status: 'error', text: `The check was not removed: ${errorText(error)}` });
    }
  };
  const cert = check.certificate;
  return (
    <Card className="sw-card" data-testid={`monitor-check-${check.id}`}>
      <CardHeader size="small">
        <h2 className="sw-card-title sw-monitor-url">{check.site ? `Site · ${check.url}` : check.url}</h2>
        <span className={`sw-badge sw-badge-${check.state}`} data-testid="monitor-state">
          {check.state === 'up' ? 'Up' : check.state === 'down' ? 'Down' : 'Not checked yet'}
        </span>
      </CardHeader>
      <CardBody size="small">
        {check.state === 'down' && check.downSince && <p className="sw-status-down">{`Down since ${when(check.downSince)}: ${check.lastError ?? ''}`}</p>}
        <dl className="sw-monitor-uptime" data-testid="monitor-uptime">
          {(['24h', '7d', '30d', '365d'] as const).map((period) => (
            <div key={period}>
              <dt>{`Uptime ${period}`}</dt>
              <dd>{pct(check.uptime[period])}</dd>
            </div>
          ))}
          <div>
            <dt>Last response</dt>
            <dd>{check.lastResponseMs === null ? '—' : `${check.lastResponseMs} ms`}</dd>
          </div>
        </dl>
        {cert && (
          <p data-testid="monitor-certificate" className={cert.error !== null || cert.daysLeft < 14 ? 'sw-status-down' : undefined}>
            {cert.daysLeft < 0
              ? `Certificate expired on ${when(cert.validTo)}.`
              : cert.error !== null
                ? `Certificate not trusted (${cert.error}); valid until ${when(cert.validTo)}.`
                : `Certificate valid until ${when(cert.validTo)} (${cert.daysLeft} days).`}
          </p>
        )}
        {check.hosts.length > 1 && (
          <p className="sw-help">{`Seen by ${check.hosts.length} hosts: ${check.hosts.map((h) => `${h.host} ${h.down ? 'down' : 'up'}`).join(', ')}.`}</p>
        )}
        <div className="sw-actions">
          <Button variant={selected ? 'primary' : 'secondary'} onClick={onSelect} aria-pressed={selected} __next40pxDefaultSize>
            Show history
          </Button>
          <Button variant="tertiary" onClick={() => setEditing(!editing)} aria-expanded={editing} __next40pxDefaultSize>
            Check settings
          </Button>
          {!check.site && (
            <Button variant="tertiary" isDestructive onClick={() => void remove()} __next40pxDefaultSize>
              Remove
            </Button>
          )}
        </div>
        {editing && (
          <CheckForm
            initial={check}
            withUrl={!check.site}
            submitLabel="Save check"
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

function CheckForm({ initial, withUrl, submitLabel, onSubmit }: { initial: Partial<CheckStatus>; withUrl: boolean; submitLabel: string; onSubmit: (body: CheckBody) => Promise<void> }) {
  const { notify } = useSite();
  const [url, setUrl] = useState(initial.url ?? '');
  const [expected, setExpected] = useState(initial.expectedStatus ?? '');
  const [keyword, setKeyword] = useState(initial.keyword ?? '');
  const [absent, setAbsent] = useState(initial.keywordAbsent ?? false);
  const [slow, setSlow] = useState(initial.slowMs === null || initial.slowMs === undefined ? '' : String(initial.slowMs));
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      await onSubmit({ ...(withUrl ? { url } : {}), expectedStatus: expected, keyword: keyword === '' ? null : keyword, keywordAbsent: absent, slowMs: slow === '' ? null : Number(slow) });
      notify({ status: 'success', text: 'The check is saved.' });
    } catch (error) {
      notify({ status: 'error', text: `The check was not saved: ${errorText(error)}` });
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
      {withUrl && <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="URL (of this site: its API, its CDN…)" type="url" value={url} onChange={setUrl} required />}
      <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Expected status" help="e.g. 200, 2xx, 200-299; empty: 2xx and 3xx" value={expected} onChange={setExpected} />
      <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Keyword in the page" help="Optional" value={keyword} onChange={setKeyword} />
      <CheckboxControl __nextHasNoMarginBottom label="Down when the keyword IS on the page (e.g. an error message)" checked={absent} onChange={setAbsent} />
      <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Slow above (ms)" type="number" min={1} value={slow} onChange={setSlow} />
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
        <h2 className="sw-card-title">More URLs of this site</h2>
      </CardHeader>
      <CardBody size="small">
        <p className="sw-help">{`Up to 5 more URLs, each with its own history (${count - 1} now).`}</p>
        {open ? (
          <CheckForm
            initial={{}}
            withUrl
            submitLabel="Add check"
            onSubmit={async (body) => {
              await api(`${M}/checks`, { method: 'POST', data: body });
              setOpen(false);
              onAdded();
            }}
          />
        ) : (
          <Button variant="secondary" onClick={() => setOpen(true)} disabled={count > 5} __next40pxDefaultSize>
            Add a URL
          </Button>
        )}
      </CardBody>
    </Card>
  );
}

function HistoryCard({ checkId, url }: { checkId: number; url: string }) {
  const [days, setDays] = useState<'1' | '7' | '30' | '365'>('1');
  const history = useLoad<History>(`${checkId}/${days}`, () => api<History>(`${M}/checks/${checkId}/history?days=${days}`));
  return (
    <Card className="sw-card sw-monitor-history">
      <CardHeader size="small">
        <h2 className="sw-card-title sw-monitor-url">{`Response time · ${url}`}</h2>
        <SelectControl
          __nextHasNoMarginBottom
          __next40pxDefaultSize
          label="Period"
          hideLabelFromVision
          value={days}
          options={[
            { label: 'Last 24 hours', value: '1' },
            { label: 'Last 7 days', value: '7' },
            { label: 'Last 30 days', value: '30' },
            { label: 'Last 365 days', value: '365' },
          ]}
          onChange={(v) => setDays(v)}
        />
      </CardHeader>
      <CardBody size="small">
        {history.state === 'loading' ? (
          <p role="status">
            <Spinner /> Loading…
          </p>
        ) : history.state === 'error' ? (
          <p role="alert">{history.error.message}</p>
        ) : (
          <>
            <ResponseChart points={history.data.points} />
            <h3 className="sw-subtitle">Downtimes</h3>
            {history.data.downtimes.length === 0 ? (
              <p data-testid="monitor-downtimes">No downtime in this period.</p>
            ) : (
              <ul className="sw-facts" data-testid="monitor-downtimes">
                {history.data.downtimes.map((d) => (
                  <li key={d.start}>{`${when(d.start)} · ${lasted(d.duration)}${d.end === null ? ' (still down)' : ''} · ${d.reason}`}</li>
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
  if (measured.length === 0) return <p data-testid="monitor-chart">No response times in this period yet.</p>;
  const max = Math.max(1, ...measured.map((p) => p.ms ?? 0));
  const t0 = Date.parse(points[0]!.at);
  const t1 = Math.max(t0 + 1, Date.parse(points[points.length - 1]!.at));
  const x = (at: string) => ((Date.parse(at) - t0) / (t1 - t0)) * width;
  const y = (ms: number) => height - (ms / max) * (height - 6);
  const line = measured.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.at).toFixed(1)},${y(p.ms ?? 0).toFixed(1)}`).join(' ');
  const average = Math.round(measured.reduce((s, p) => s + (p.ms ?? 0), 0) / measured.length);
  return (
    <figure className="sw-chart">
      <figcaption className="sw-chart-caption">{`Average ${average} ms · highest ${max} ms`}</figcaption>
      <svg viewBox={`0 0 ${width} ${height + 4}`} role="img" aria-label={`Response time: average ${average} ms, highest ${max} ms, ${points.reduce((n, p) => n + p.down, 0)} failed checks`} data-testid="monitor-chart">
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
  if (w.kind === 'once') return `${when(w.starts)} – ${when(w.ends)}`;
  if (w.kind === 'weekly') return `Every ${w.days.map((d) => DAYS[d]).join(', ')} at ${w.time} for ${w.durationMinutes} min`;
  return `Cron "${w.cron}" for ${w.durationMinutes} min`;
}

function MaintenanceCard({ windows, timeZone, onChanged }: { windows: Window[]; timeZone: string; onChanged: () => void }) {
  const { notify } = useSite();
  const [kind, setKind] = useState<'once' | 'weekly' | 'cron'>('once');
  const [starts, setStarts] = useState('');
  const [ends, setEnds] = useState('');
  const [days, setDays] = useState<number[]>([0]);
  const [time, setTime] = useState('03:00');
  const [cron, setCron] = useState('0 3 * * 0');
  const [duration, setDuration] = useState('60');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const add = async () => {
    setBusy(true);
    const base = { kind, note };
    const body =
      kind === 'once'
        ? { ...base, starts: starts && new Date(starts).toISOString(), ends: ends && new Date(ends).toISOString() }
        : kind === 'weekly'
          ? { ...base, days, time, durationMinutes: Number(duration) }
          : { ...base, cron, durationMinutes: Number(duration) };
    try {
      await api(`${M}/maintenance`, { method: 'POST', data: body });
      notify({ status: 'success', text: 'The maintenance window is saved.' });
      onChanged();
    } catch (error) {
      notify({ status: 'error', text: `The maintenance window was not saved: ${errorText(error)}` });
    } finally {
      setBusy(false);
    }
  };
  const remove = async (id: number) => {
    try {
      await api(`${M}/maintenance/${id}`, { method: 'DELETE' });
      onChanged();
    } catch (error) {
      notify({ status: 'error', text: `The window was not removed: ${errorText(error)}` });
    }
  };
  return (
    <Card className="sw-card">
      <CardHeader size="small">
        <h2 className="sw-card-title">Maintenance windows</h2>
      </CardHeader>
      <CardBody size="small">
        <p className="sw-help">{`Checks go on during a window, but no downtime is counted and nobody is notified. Times of recurring windows are in ${timeZone}.`}</p>
        {windows.length === 0 ? (
          <p data-testid="monitor-windows">No maintenance windows.</p>
        ) : (
          <ul className="sw-facts" data-testid="monitor-windows">
            {windows.map((w) => (
              <li key={w.id}>
                {`${describeWindow(w)}${w.note ? ` · ${w.note}` : ''} `}
                <Button variant="link" isDestructive onClick={() => void remove(w.id)}>
                  Remove
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
            label="Repeats"
            value={kind}
            options={[
              { label: 'Once', value: 'once' },
              { label: 'Weekly', value: 'weekly' },
              { label: 'Cron expression', value: 'cron' },
            ]}
            onChange={(v) => setKind(v as typeof kind)}
          />
          {kind === 'once' && (
            <>
              <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Starts" type="datetime-local" value={starts} onChange={setStarts} />
              <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Ends" type="datetime-local" value={ends} onChange={setEnds} />
            </>
          )}
          {kind === 'weekly' && (
            <fieldset className="sw-monitor-days">
              <legend>Days</legend>
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
          {kind === 'weekly' && <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="At (HH:MM)" value={time} onChange={setTime} />}
          {kind === 'cron' && <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Cron expression (minute hour day month weekday)" value={cron} onChange={setCron} />}
          {kind !== 'once' && <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Lasts (minutes)" type="number" min={1} value={duration} onChange={setDuration} />}
          <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Note" value={note} onChange={setNote} />
          <div className="sw-actions">
            <Button variant="primary" type="submit" isBusy={busy} disabled={busy} __next40pxDefaultSize>
              Add window
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}

function NotificationsCard({ settings, admins }: { settings: Notifications; admins: { id: number; name: string }[] }) {
  const { notify } = useSite();
  const [chosen, setChosen] = useState<number[] | null>(settings.administrators);
  const [emails, setEmails] = useState(settings.emails.join(', '));
  const [repeat, setRepeat] = useState(String(settings.repeatMinutes));
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
      await api(`${M}/notifications`, { method: 'POST', data: { administrators: chosen, emails: list, repeatMinutes: Number(repeat) } });
      notify({ status: 'success', text: 'Notification settings saved.' });
    } catch (error) {
      notify({ status: 'error', text: `Not saved: ${errorText(error)}` });
    } finally {
      setBusy(false);
    }
  };
  const test = async () => {
    setResults(null);
    try {
      const answer = await api<{ results: { channel: string; ok: boolean; error?: string }[] }>(`${M}/notifications/test`, { method: 'POST' });
      setResults(answer.results.map((r) => `${r.channel === 'email' ? 'E-mail' : 'Webhook'}: ${r.ok ? 'sent' : `failed (${r.error ?? ''})`}`).join(' · '));
    } catch (error) {
      setResults(errorText(error));
    }
  };
  return (
    <Card className="sw-card">
      <CardHeader size="small">
        <h2 className="sw-card-title">Notifications</h2>
      </CardHeader>
      <CardBody size="small">
        <fieldset className="sw-monitor-admins" data-testid="monitor-admins">
          <legend>Administrators who get e-mails</legend>
          {admins.map((a) => (
              <CheckboxControl
                key={a.id}
                __nextHasNoMarginBottom
                label={a.name}
                checked={chosen === null || chosen.includes(a.id)}
                onChange={(on) => {
                  const current = chosen ?? all;
                  setChosen(on ? [...current, a.id] : current.filter((id) => id !== a.id));
                }}
              />
            ))}
        </fieldset>
        <TextControl __nextHasNoMarginBottom __next40pxDefaultSize label="Other addresses" help="Comma-separated" value={emails} onChange={setEmails} />
        <TextControl
          __nextHasNoMarginBottom
          __next40pxDefaultSize
          label="Remind every (minutes) while still down"
          help="0: no reminders"
          type="number"
          min={0}
          value={repeat}
          onChange={setRepeat}
        />
        <div className="sw-actions">
          <Button variant="primary" onClick={() => void save()} isBusy={busy} disabled={busy} __next40pxDefaultSize>
            Save
          </Button>
          <Button variant="secondary" onClick={() => void test()} __next40pxDefaultSize>
            Send a test notification
          </Button>
        </div>
        {results !== null && (
          <p role="status" data-testid="monitor-test-result">
            {results}
          </p>
        )}
      </CardBody>
    </Card>
  );
}
