/** At a Glance: connection, protect, monitor, backups, spam and plugin updates, each a card with its own states. */
import { Button, Card, CardBody, CardHeader, Notice, Spinner } from '@wordpress/components';
import { useState, type ReactNode } from 'react';
import type { ApiError} from './api';
import { api, jp } from './api';
import { BarChart, Timeline } from './charts';
import { useLoad } from './hooks';
import { errorText, useSite } from './site';
import type { AkismetStats, MonitorHistory, PluginUpdates, ProtectHistory, VaultPressData } from './types';
import { updatesText } from './words';

function GlanceCard({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Card className="sw-card" id={`card-${id}`} data-testid={`card-${id}`}>
      <CardHeader size="small">
        <h2 className="sw-card-title">{title}</h2>
      </CardHeader>
      <CardBody size="small">{children}</CardBody>
    </Card>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="sw-muted" role="status">
      <Spinner /> Loading {what}…
    </p>
  );
}

export function Failed({ error, retry }: { error: ApiError; retry: () => void }) {
  return (
    <div className="sw-card-error" role="alert">
      <p>{error.message}</p>
      <Button variant="secondary" size="compact" onClick={retry}>
        Try again
      </Button>
    </div>
  );
}

/** An endpoint that this server does not have (yet): said plainly, not as an error. */
function isMissingRoute(error: ApiError) {
  return error.code === 'rest_no_route';
}

function ModuleOff({ slug, what }: { slug: string; what: string }) {
  const { modules, toggleModule, busy, user } = useSite();
  const mod = modules[slug];
  if (!mod) return <p className="sw-muted">{what} is not offered on this site.</p>;
  if (!mod.available) return <p className="sw-muted">{mod.name} needs a connection to the account service. Connect the site to use it.</p>;
  return (
    <div>
      <p className="sw-muted">{mod.name} is off.</p>
      {user.currentUser.permissions.manage_modules !== false && (
        <Button variant="primary" size="compact" isBusy={busy.has(slug)} disabled={busy.has(slug)} onClick={() => void toggleModule(slug, true)}>
          Turn on {mod.name}
        </Button>
      )}
    </div>
  );
}

function ProtectCard() {
  const { modules } = useSite();
  const on = modules.protect?.activated === true;
  const history = useLoad<ProtectHistory>(on ? 'on' : null, () => api(`/siteward/v1/protect/history?days=30`));
  return (
    <GlanceCard title="Protect" id="protect">
      {!on ? (
        <ModuleOff slug="protect" what="Protect" />
      ) : history.state === 'loading' ? (
        <Loading what="blocked attempts" />
      ) : history.state === 'error' ? (
        <Failed error={history.error} retry={history.reload} />
      ) : (
        <>
          <p className="sw-big" data-testid="protect-total">
            {history.data.total.toLocaleString()}
          </p>
          <p className="sw-muted">{history.data.total === 0 ? 'No malicious login attempt blocked yet.' : 'malicious login attempts blocked'}</p>
          <BarChart points={history.data.history} label="Blocked login attempts per day" />
        </>
      )}
    </GlanceCard>
  );
}

function MonitorCard() {
  const { modules } = useSite();
  const on = modules.monitor?.activated === true;
  const both = useLoad<{ last: { date: string | null }; history: MonitorHistory }>(on ? 'on' : null, async () => {
    const [last, history] = await Promise.all([api<{ date: string | null }>(jp('module/monitor/data')), api<MonitorHistory>('/siteward/v1/monitor/history?days=30')]);
    return { last, history };
  });
  return (
    <GlanceCard title="Monitor" id="monitor">
      {!on ? (
        <ModuleOff slug="monitor" what="Monitor" />
      ) : both.state === 'loading' ? (
        <Loading what="downtime" />
      ) : both.state === 'error' ? (
        <Failed error={both.error} retry={both.reload} />
      ) : (
        <>
          {both.data.history.intervals.some((i) => i.end === null) ? (
            <p className="sw-status-down" data-testid="monitor-status">The site is down right now.</p>
          ) : (
            <p data-testid="monitor-status">{both.data.last.date ? `Last downtime: ${both.data.last.date} ago.` : 'Monitor is watching your site; no downtime recorded.'}</p>
          )}
          <Timeline intervals={both.data.history.intervals} days={both.data.history.days} />
          {both.data.history.intervals.length > 0 && (
            <ul className="sw-facts" data-testid="monitor-intervals">
              {both.data.history.intervals.slice(-3).reverse().map((i) => (
                <li key={i.start}>
                  {`Down ${new Date(i.start).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })} for ${duration(i.duration)}${i.end === null ? ' (still down)' : ''}`}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </GlanceCard>
  );
}

function duration(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

/** Unix seconds (Siteward) or a date string (older servers) → a Date, or null. */
function unixOrDate(value: number | string | null | undefined): Date | null {
  const date = typeof value === 'number' ? new Date(value * 1000) : typeof value === 'string' && value !== '' ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/** With a no-break space, so a size never wraps between number and unit. */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}\u00a0bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)}\u00a0KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}\u00a0MB`;
}

function BackupsCard() {
  const data = useLoad<VaultPressData>('vaultpress', () => api(jp('module/vaultpress/data')));
  let body: ReactNode;
  if (data.state === 'loading') body = <Loading what="backups" />;
  else if (data.state === 'error') {
    if (isMissingRoute(data.error)) body = <p className="sw-muted">Backup status is not available from this server yet.</p>;
    else if (data.error.code === 'not_active') body = <p className="sw-muted">Backups are not active on this site.</p>;
    else body = <Failed error={data.error} retry={data.reload} />;
  } else if (data.data.code === 'not_registered') body = <p>{data.data.message}</p>;
  else {
    const backups = data.data.data?.backups ?? {};
    const when = unixOrDate(backups.last_backup);
    const next = unixOrDate(backups.next_backup);
    const issues = data.data.data?.security?.notice_count ?? 0;
    const at = (date: Date) => date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    const facts = [
      when && `Last backup: ${at(when)}${typeof backups.size === 'number' ? ` (${fileSize(backups.size)})` : ''}`,
      typeof backups.count === 'number' && `Backups kept: ${backups.count}`,
      next && `Next backup: ${at(next)}`,
    ].filter((fact): fact is string => typeof fact === 'string');
    body = (
      <>
        <p data-testid="backups-message" className={backups.status === 'failed' ? 'sw-status-down' : undefined}>
          {data.data.message}
        </p>
        {facts.length > 0 && (
          <ul className="sw-facts" data-testid="backups-facts">
            {facts.map((fact) => (
              <li key={fact}>{fact}</li>
            ))}
          </ul>
        )}
        {issues > 0 && <Notice status="warning" isDismissible={false}>{`${issues} security notice${issues === 1 ? '' : 's'} to review.`}</Notice>}
        <p>
          <a href="#/backups">Manage backups</a>
        </p>
      </>
    );
  }
  return (
    <GlanceCard title="Backups" id="backups">
      {body}
    </GlanceCard>
  );
}

const AKISMET_CODES: Record<string, string> = {
  not_installed: 'The anti-spam service is not installed on this site.',
  not_active: 'The anti-spam service is installed but not active.',
  invalid_key: 'The anti-spam key is missing or invalid: set a valid key to see statistics.',
};

function SpamCard() {
  // Kept on the 2016 name: the 4.3+ `module/akismet/data` answers only the spam count, and this card shows accuracy and time saved too.
  const stats = useLoad<AkismetStats>('akismet', () => api(jp('akismet/stats/get')));
  let body: ReactNode;
  if (stats.state === 'loading') body = <Loading what="spam statistics" />;
  else if (stats.state === 'error') body = isMissingRoute(stats.error) ? <p className="sw-muted">Spam statistics are not available from this server yet.</p> : <Failed error={stats.error} retry={stats.reload} />;
  else if (typeof stats.data === 'string') body = <p className="sw-muted">{AKISMET_CODES[stats.data] ?? `No spam statistics (${stats.data}).`}</p>;
  else {
    const all = stats.data.all ?? {};
    body =
      !all.spam && !all.ham ? (
        <p className="sw-muted">No spam caught yet.</p>
      ) : (
        <>
          <p className="sw-big" data-testid="spam-total">
            {(all.spam ?? 0).toLocaleString()}
          </p>
          <p className="sw-muted">spam comments blocked</p>
          <ul className="sw-facts">
            {all.accuracy !== undefined && <li>Accuracy: {all.accuracy}%</li>}
            {all.time_saved !== undefined && <li>Time saved: {Math.round(all.time_saved / 60).toLocaleString()} minutes</li>}
            {all.false_positives !== undefined && <li>False positives: {all.false_positives}</li>}
          </ul>
        </>
      );
  }
  return (
    <GlanceCard title="Spam" id="spam">
      {body}
    </GlanceCard>
  );
}

function UpdatesCard() {
  const updates = useLoad<PluginUpdates>('updates', () => api(jp('updates/plugins')));
  let body: ReactNode;
  if (updates.state === 'loading') body = <Loading what="plugin updates" />;
  else if (updates.state === 'error') {
    if (isMissingRoute(updates.error)) body = <p className="sw-muted">Plugin update checks are not available from this server yet.</p>;
    else if (updates.error.code === 'not_found') body = <p className="sw-muted">{updates.error.message}</p>;
    else body = <Failed error={updates.error} retry={updates.reload} />;
  } else
    body =
      updates.data.code === 'updates-available' ? (
        <>
          <p className="sw-big" data-testid="updates-count">
            {updates.data.count}
          </p>
          <p>{updatesText(updates.data.count)}</p>
        </>
      ) : (
        <p data-testid="updates-message">{updatesText(0)}</p>
      );
  return (
    <GlanceCard title="Plugin updates" id="updates">
      {body}
    </GlanceCard>
  );
}

function ConnectionCard() {
  const { connection, user, notify, refresh } = useSite();
  const [working, setWorking] = useState<string | null>(null);
  const me = user.currentUser;
  const dev = connection.devMode;
  const plan = useLoad<string | null>(connection.isActive ? 'site' : null, async () => {
    const answer = await api<{ data: string }>(jp('site'));
    const site = JSON.parse(answer.data) as { plan?: { product_name_short?: string } };
    return site.plan?.product_name_short ?? null;
  });
  const run = async (what: string, action: () => Promise<void>) => {
    setWorking(what);
    try {
      await action();
    } catch (error) {
      notify({ status: 'error', text: errorText(error) });
    } finally {
      setWorking(null);
    }
  };
  const connect = () =>
    run('connect', async () => {
      const url = await api<string>(jp('connection/url'));
      window.location.assign(url);
    });
  const disconnect = () => {
    if (!window.confirm('Disconnect the site from the account service? Modules that need the connection stop working.')) return;
    void run('disconnect', async () => {
      await api(jp('connection'), { method: 'POST', data: { isActive: false } });
      await refresh();
      notify({ status: 'success', text: 'The site is disconnected.' });
    });
  };
  const unlink = () =>
    run('unlink', async () => {
      await api(jp('connection/user'), { method: 'POST', data: { linked: false } });
      await refresh();
      notify({ status: 'success', text: 'Your account is unlinked.' });
    });

  let body: ReactNode;
  if (dev.isActive) {
    const why = dev.constant ? 'the offline-mode setting (SITEWARD_OFFLINE) is on' : dev.url ? 'the site address has no dot in its host name, so it cannot be reached from the internet' : 'a plugin turned it on';
    body = (
      <>
        <p data-testid="connection-state">
          <strong>Offline mode.</strong> The site works without the account service because {why}. Modules that need a connection are unavailable.
        </p>
      </>
    );
  } else if (!connection.isActive) {
    body = (
      <>
        <p data-testid="connection-state">The site is not connected to the account service.</p>
        {me.permissions.connect && (
          <Button variant="primary" id="connect" isBusy={working === 'connect'} disabled={working !== null} onClick={() => void connect()}>
            Connect to the account service
          </Button>
        )}
      </>
    );
  } else {
    const who = me.wpcomUser?.login ?? me.wpcomUser?.email;
    body = (
      <>
        <p data-testid="connection-state">The site is connected.{plan.state === 'ok' && plan.data ? ` Plan: ${plan.data}.` : ''}</p>
        {me.isConnected ? (
          <p>
            You are linked as <strong>{who ?? 'your account'}</strong>
            {me.isMaster ? ' — the master user.' : '.'}
          </p>
        ) : (
          <p>Your account is not linked.</p>
        )}
        <div className="sw-actions">
          {!me.isConnected && me.permissions.connect && (
            <Button variant="primary" id="connect" isBusy={working === 'connect'} disabled={working !== null} onClick={() => void connect()}>
              Link your account
            </Button>
          )}
          {me.isConnected && !me.isMaster && (
            <Button variant="secondary" isBusy={working === 'unlink'} disabled={working !== null} onClick={() => void unlink()}>
              Unlink your account
            </Button>
          )}
          {me.permissions.disconnect && (
            <Button variant="secondary" isDestructive isBusy={working === 'disconnect'} disabled={working !== null} onClick={disconnect}>
              Disconnect the site
            </Button>
          )}
        </div>
      </>
    );
  }
  return (
    <GlanceCard title="Connection" id="connection">
      {body}
    </GlanceCard>
  );
}

export function Dashboard() {
  return (
    <div className="sw-grid">
      <ConnectionCard />
      <ProtectCard />
      <MonitorCard />
      <BackupsCard />
      <SpamCard />
      <UpdatesCard />
    </div>
  );
}

