/** At a Glance: connection, protect, monitor, backups, spam and plugin updates, each a card with its own states. */
import { Button, Notice, Spinner } from '@wordpress/components';
import { __, _n, sprintf } from '@wordpress/i18n';
import { addQueryArgs } from '@wordpress/url';
import type { ReactNode } from 'react';
import type { ApiError } from './api';
import { api, jp } from './api';
import { BarChart, Timeline } from './charts';
import { ConnectionCard } from './Connection';
import { UnavailableReason } from './UnavailableReason';
import { GlanceCard } from './GlanceCard';
import { useLoad } from './hooks';
import { useConnection, useModuleActions, useModules } from './site';
import type { AkismetStats, MonitorHistory, PluginUpdates, ProtectHistory, VaultPressData } from './types';
import { updatesText } from './words';

/** `text` is the whole sentence ("Loading backups…"): a translation needs all of it. */
export function Loading({ text }: { text: string }) {
  return (
    <p className="sw-muted" role="status">
      <Spinner /> {text}
    </p>
  );
}

export function Failed({ error, retry }: { error: ApiError; retry: () => void }) {
  return (
    <div className="sw-card-error" role="alert">
      <p>{error.message}</p>
      <Button variant="secondary" size="compact" onClick={retry}>
        {__('Try again', 'siteward')}
      </Button>
    </div>
  );
}

/** An endpoint that this server does not have (yet): said plainly, not as an error. */
function isMissingRoute(error: ApiError) {
  return error.code === 'rest_no_route';
}

function ModuleOff({ slug, what }: { slug: string; what: string }) {
  const { modules, busy } = useModules();
  const { toggleModule } = useModuleActions();
  const { user, connection } = useConnection();
  const mod = modules[slug];
  // translators: %s: a feature's name.
  if (!mod) return <p className="sw-muted">{sprintf(__('%s is not offered on this site.', 'siteward'), what)}</p>;
  if (!mod.available) return <UnavailableReason mod={mod} offline={connection.devMode.isActive} />;
  return (
    <div>
      {/* translators: %s: a module's name. */}
      <p className="sw-muted">{sprintf(__('%s is off.', 'siteward'), mod.name)}</p>
      {user.currentUser.permissions.manage_modules !== false && (
        <Button
          variant="primary"
          size="compact"
          isBusy={busy.has(slug)}
          disabled={busy.has(slug)}
          onClick={() => void toggleModule(slug, true)}
        >
          {/* translators: %s: a module's name. */}
          {sprintf(__('Turn on %s', 'siteward'), mod.name)}
        </Button>
      )}
    </div>
  );
}

function ProtectCard() {
  const { modules } = useModules();
  const on = modules.protect?.activated === true;
  const history = useLoad<ProtectHistory>(on ? 'on' : null, () => api(addQueryArgs('/siteward/v1/protect/history', { days: 30 })), {
    live: true,
  });
  return (
    <GlanceCard title={__('Protect', 'siteward')} id="protect">
      {!on ? (
        <ModuleOff slug="protect" what={__('Protect', 'siteward')} />
      ) : history.state === 'loading' ? (
        <Loading text={__('Loading blocked attempts…', 'siteward')} />
      ) : history.state === 'error' ? (
        <Failed error={history.error} retry={history.reload} />
      ) : (
        <>
          <p className="sw-big" data-testid="protect-total">
            {history.data.total.toLocaleString()}
          </p>
          <p className="sw-muted">
            {history.data.total === 0
              ? __('No malicious login attempt blocked yet.', 'siteward')
              : _n('malicious login attempt blocked', 'malicious login attempts blocked', history.data.total, 'siteward')}
          </p>
          <BarChart points={history.data.history} label={__('Blocked login attempts per day', 'siteward')} />
          <p>
            <a href="#/protect">{__('Who is blocked, and lifting blocks', 'siteward')}</a>
          </p>
        </>
      )}
    </GlanceCard>
  );
}

function MonitorCard() {
  const { modules } = useModules();
  const on = modules.monitor?.activated === true;
  const both = useLoad<{ last: { date: string | null }; history: MonitorHistory }>(
    on ? 'on' : null,
    async () => {
      const [last, history] = await Promise.all([
        api<{ date: string | null }>(jp('module/monitor/data')),
        api<MonitorHistory>(addQueryArgs('/siteward/v1/monitor/history', { days: 30 })),
      ]);
      return { last, history };
    },
    { live: true },
  );
  return (
    <GlanceCard title={__('Monitor', 'siteward')} id="monitor">
      {!on ? (
        <ModuleOff slug="monitor" what={__('Monitor', 'siteward')} />
      ) : both.state === 'loading' ? (
        <Loading text={__('Loading downtime…', 'siteward')} />
      ) : both.state === 'error' ? (
        <Failed error={both.error} retry={both.reload} />
      ) : (
        <>
          {both.data.history.intervals.some((i) => i.end === null) ? (
            <p className="sw-status-down" data-testid="monitor-status">
              {__('The site is down right now.', 'siteward')}
            </p>
          ) : (
            <p data-testid="monitor-status">
              {both.data.last.date
                ? // translators: %s: how long ago, e.g. "3 hours".
                  sprintf(__('Last downtime: %s ago.', 'siteward'), both.data.last.date)
                : __('Monitor is watching your site; no downtime recorded.', 'siteward')}
            </p>
          )}
          {both.data.history.checks.length > 0 && (
            <ul className="sw-glance-checks" data-testid="monitor-checks">
              {both.data.history.checks.map((c) => (
                <li key={c.id}>
                  <span className={`sw-badge sw-badge-${c.state}`}>{checkStateLabel(c.state, c.maintenance)}</span>
                  <span className="sw-glance-check-url">{c.url}</span>
                </li>
              ))}
            </ul>
          )}
          <Timeline
            intervals={both.data.history.intervals}
            noData={both.data.history.noData}
            monitoredSince={both.data.history.monitoredSince}
            days={both.data.history.days}
          />
          {both.data.history.intervals.length > 0 && (
            <ul className="sw-facts" data-testid="monitor-intervals">
              {both.data.history.intervals
                .slice(-3)
                .reverse()
                .map((i) => (
                  <li key={i.start}>
                    {sprintf(
                      i.end === null
                        ? // translators: 1: when the site went down, 2: for how long so far.
                          __('Down %1$s for %2$s (still down)', 'siteward')
                        : // translators: 1: when the site went down, 2: for how long.
                          __('Down %1$s for %2$s', 'siteward'),
                      new Date(i.start).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
                      duration(i.duration),
                    )}
                  </li>
                ))}
            </ul>
          )}
        </>
      )}
    </GlanceCard>
  );
}

/** A check's state in a word (At a Glance and the Monitor screen); a maintenance window does not make a down site up. */
export function checkStateLabel(state: 'up' | 'down' | 'unknown', maintenance = false): string {
  if (state === 'down') return maintenance ? __('Down (maintenance)', 'siteward') : __('Down', 'siteward');
  return state === 'up' ? __('Up', 'siteward') : __('Not checked yet', 'siteward');
}

export function duration(seconds: number): string {
  // translators: %d: seconds.
  if (seconds < 90) return sprintf(__('%d s', 'siteward'), seconds);
  // translators: %d: minutes.
  if (seconds < 5400) return sprintf(__('%d min', 'siteward'), Math.round(seconds / 60));
  // translators: %d: hours.
  if (seconds < 172_800) return sprintf(__('%d h', 'siteward'), Math.round(seconds / 3600));
  const days = Math.round(seconds / 86_400);
  // translators: %d: days.
  return sprintf(_n('%d day', '%d days', days, 'siteward'), days);
}

/** Unix seconds (Siteward) or a date string (older servers) → a Date, or null. */
function unixOrDate(value: number | string | null | undefined): Date | null {
  const date = typeof value === 'number' ? new Date(value * 1000) : typeof value === 'string' && value !== '' ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/** With a no-break space, so a size never wraps between number and unit. */
export function fileSize(bytes: number): string {
  // translators: %d: a size in bytes; keep the no-break space.
  if (bytes < 1024) return sprintf(_n('%d\u00a0byte', '%d\u00a0bytes', bytes, 'siteward'), bytes);
  // translators: %d: a size in kilobytes; keep the no-break space.
  if (bytes < 1024 * 1024) return sprintf(__('%d\u00a0KB', 'siteward'), Math.round(bytes / 1024));
  // translators: %s: a size in megabytes; keep the no-break space.
  return sprintf(__('%s\u00a0MB', 'siteward'), (bytes / (1024 * 1024)).toFixed(1));
}

function BackupsCard() {
  const data = useLoad<VaultPressData>('vaultpress', () => api(jp('module/vaultpress/data')), { live: true });
  let body: ReactNode;
  if (data.state === 'loading') body = <Loading text={__('Loading backups…', 'siteward')} />;
  else if (data.state === 'error') {
    if (isMissingRoute(data.error))
      body = <p className="sw-muted">{__('Backup status is not available from this server yet.', 'siteward')}</p>;
    else if (data.error.code === 'not_active') body = <p className="sw-muted">{__('Backups are not active on this site.', 'siteward')}</p>;
    else body = <Failed error={data.error} retry={data.reload} />;
  } else if (data.data.code === 'not_registered') body = <p>{data.data.message}</p>;
  else {
    const backups = data.data.data?.backups ?? {};
    const when = unixOrDate(backups.last_backup);
    const next = unixOrDate(backups.next_backup);
    const issues = data.data.data?.security?.notice_count ?? 0;
    const at = (date: Date) => date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    const facts: string[] = [];
    if (when) {
      facts.push(
        typeof backups.size === 'number'
          ? // translators: 1: date and time, 2: size.
            sprintf(__('Last backup: %1$s (%2$s)', 'siteward'), at(when), fileSize(backups.size))
          : // translators: %s: date and time.
            sprintf(__('Last backup: %s', 'siteward'), at(when)),
      );
    }
    // translators: %d: how many backups are kept.
    if (typeof backups.count === 'number') facts.push(sprintf(__('Backups kept: %d', 'siteward'), backups.count));
    // translators: %s: date and time.
    if (next) facts.push(sprintf(__('Next backup: %s', 'siteward'), at(next)));
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
        {issues > 0 && (
          <Notice status="warning" isDismissible={false}>
            {/* translators: %d: how many security notices. */}
            {sprintf(_n('%d security notice to review.', '%d security notices to review.', issues, 'siteward'), issues)}
          </Notice>
        )}
        <p>
          <a href="#/backups">{__('Manage backups', 'siteward')}</a>
        </p>
      </>
    );
  }
  return (
    <GlanceCard title={__('Backups', 'siteward')} id="backups">
      {body}
    </GlanceCard>
  );
}

function akismetCodeText(code: string): string {
  // The server answers `not_installed` while no key is set (docs/spec/compat.md §9).
  if (code === 'not_installed')
    return __(
      'Unavailable: no anti-spam key is set on this server. Set SITEWARD_AKISMET_KEY (and SITEWARD_AKISMET_URL for a service other than Akismet), then restart Siteward.',
      'siteward',
    );
  if (code === 'not_active') return __('The anti-spam service is installed but not active.', 'siteward');
  if (code === 'invalid_key')
    return __('The anti-spam service refused the key: set a valid SITEWARD_AKISMET_KEY, then restart Siteward.', 'siteward');
  // translators: %s: the code the server answered.
  return sprintf(__('No spam statistics (%s).', 'siteward'), code);
}

function SpamCard() {
  // Kept on the 2016 name: the 4.3+ `module/akismet/data` answers only the spam count, and this card shows accuracy and time saved too.
  const stats = useLoad<AkismetStats>('akismet', () => api(jp('akismet/stats/get')), { live: true });
  let body: ReactNode;
  if (stats.state === 'loading') body = <Loading text={__('Loading spam statistics…', 'siteward')} />;
  else if (stats.state === 'error')
    body = isMissingRoute(stats.error) ? (
      <p className="sw-muted">{__('Spam statistics are not available from this server yet.', 'siteward')}</p>
    ) : (
      <Failed error={stats.error} retry={stats.reload} />
    );
  else if (typeof stats.data === 'string') body = <p className="sw-muted">{akismetCodeText(stats.data)}</p>;
  else {
    const all = stats.data.all ?? {};
    body =
      !all.spam && !all.ham ? (
        <p className="sw-muted">{__('No spam caught yet.', 'siteward')}</p>
      ) : (
        <>
          <p className="sw-big" data-testid="spam-total">
            {(all.spam ?? 0).toLocaleString()}
          </p>
          <p className="sw-muted">{_n('spam comment blocked', 'spam comments blocked', all.spam ?? 0, 'siteward')}</p>
          <ul className="sw-facts">
            {/* translators: %s: a percentage. */}
            {all.accuracy !== undefined && <li>{sprintf(__('Accuracy: %s%%', 'siteward'), String(all.accuracy))}</li>}
            {/* translators: %s: a number of minutes. */}
            {all.time_saved !== undefined && (
              <li>{sprintf(__('Time saved: %s minutes', 'siteward'), Math.round(all.time_saved / 60).toLocaleString())}</li>
            )}
            {/* translators: %d: how many comments were wrongly marked as spam. */}
            {all.false_positives !== undefined && <li>{sprintf(__('False positives: %d', 'siteward'), all.false_positives)}</li>}
          </ul>
        </>
      );
  }
  return (
    <GlanceCard title={__('Spam', 'siteward')} id="spam">
      {body}
    </GlanceCard>
  );
}

function UpdatesCard() {
  const updates = useLoad<PluginUpdates>('updates', () => api(jp('updates/plugins')));
  let body: ReactNode;
  if (updates.state === 'loading') body = <Loading text={__('Loading plugin updates…', 'siteward')} />;
  else if (updates.state === 'error') {
    if (isMissingRoute(updates.error))
      body = <p className="sw-muted">{__('Plugin update checks are not available from this server yet.', 'siteward')}</p>;
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
    <GlanceCard title={__('Plugin updates', 'siteward')} id="updates">
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
