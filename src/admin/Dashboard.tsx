/** At a Glance: connection, protect, monitor, backups, spam and plugin updates, each a card with its own states. */
import { Button, Notice } from '@wordpress/components';
import { __, _n, sprintf } from '@wordpress/i18n';
import { addQueryArgs } from '@wordpress/url';
import { RecentActivityCard } from './activity/RecentActivityCard';
import { AgentClientsCard } from './AgentClients';
import { jp } from './api';
import { BarChart, Timeline } from './charts';
import { ConnectionCard } from './Connection';
import { joined, useRest } from './data/use-rest';
import { GlanceCard } from './GlanceCard';
import { checkStateLabel } from './monitor/words';
import { useConnection, useModuleActions, useModules } from './site';
import type { AkismetStats, MonitorHistory, PluginUpdates, ProtectHistory, VaultPressData } from './types';
import { dateTime, duration, fileSize } from './ui/format';
import { isMissingRoute, Loaded } from './ui/Loaded';
import { UnavailableReason } from './UnavailableReason';
import { updatesText } from './words';

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

/** Protect's 30-day history, read by At a Glance (the Protect screen invalidates it after a change). */
export const PROTECT_HISTORY = addQueryArgs('/siteward/v1/protect/history', { days: 30 });
export const MONITOR_HISTORY = addQueryArgs('/siteward/v1/monitor/history', { days: 30 });

function ProtectCard() {
  const { modules } = useModules();
  const on = modules.protect?.activated === true;
  const history = useRest<ProtectHistory>(on ? PROTECT_HISTORY : null, { live: true });
  return (
    <GlanceCard title={__('Protect', 'siteward')} id="protect">
      {!on ? (
        <ModuleOff slug="protect" what={__('Protect', 'siteward')} />
      ) : (
        <Loaded load={history} loading={__('Loading blocked attempts…', 'siteward')}>
          {(data) => (
            <>
              <p className="sw-big" data-testid="protect-total">
                {data.total.toLocaleString()}
              </p>
              <p className="sw-muted">
                {data.total === 0
                  ? __('No malicious login attempt blocked yet.', 'siteward')
                  : _n('malicious login attempt blocked', 'malicious login attempts blocked', data.total, 'siteward')}
              </p>
              <BarChart points={data.history} label={__('Blocked login attempts per day', 'siteward')} />
              <p>
                <a href="#/protect">{__('Who is blocked, and lifting blocks', 'siteward')}</a>
              </p>
            </>
          )}
        </Loaded>
      )}
    </GlanceCard>
  );
}

function MonitorCard() {
  const { modules } = useModules();
  const on = modules.monitor?.activated === true;
  const both = joined(
    useRest<{ date: string | null }>(on ? jp('module/monitor/data') : null, { live: true }),
    useRest<MonitorHistory>(on ? MONITOR_HISTORY : null, { live: true }),
  );
  return (
    <GlanceCard title={__('Monitor', 'siteward')} id="monitor">
      {!on ? (
        <ModuleOff slug="monitor" what={__('Monitor', 'siteward')} />
      ) : (
        <Loaded load={both} loading={__('Loading downtime…', 'siteward')}>
          {([last, history]) => (
            <>
              {history.intervals.some((i) => i.end === null) ? (
                <p className="sw-status-down" data-testid="monitor-status">
                  {__('The site is down right now.', 'siteward')}
                </p>
              ) : (
                <p data-testid="monitor-status">
                  {last.date
                    ? // translators: %s: how long ago, e.g. "3 hours".
                      sprintf(__('Last downtime: %s ago.', 'siteward'), last.date)
                    : __('Monitor is watching your site; no downtime recorded.', 'siteward')}
                </p>
              )}
              {history.checks.length > 0 && (
                <ul className="sw-glance-checks" data-testid="monitor-checks">
                  {history.checks.map((c) => (
                    <li key={c.id}>
                      <span className={`sw-badge sw-badge-${c.state}`}>{checkStateLabel(c.state, c.maintenance)}</span>
                      <span className="sw-glance-check-url">{c.url}</span>
                    </li>
                  ))}
                </ul>
              )}
              <Timeline intervals={history.intervals} noData={history.noData} monitoredSince={history.monitoredSince} days={history.days} />
              {history.intervals.length > 0 && (
                <ul className="sw-facts" data-testid="monitor-intervals">
                  {history.intervals
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
                          dateTime(i.start),
                          duration(i.duration),
                        )}
                      </li>
                    ))}
                </ul>
              )}
            </>
          )}
        </Loaded>
      )}
    </GlanceCard>
  );
}

/** Unix seconds (Siteward) or a date string (older servers) → a Date, or null. */
function unixOrDate(value: number | string | null | undefined): Date | null {
  const date = typeof value === 'number' ? new Date(value * 1000) : typeof value === 'string' && value !== '' ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

export const VAULTPRESS_DATA = jp('module/vaultpress/data');

function BackupsSummary({ answer }: { answer: VaultPressData }) {
  if (answer.code === 'not_registered') return <p>{answer.message}</p>;
  const backups = answer.data?.backups ?? {};
  const when = unixOrDate(backups.last_backup);
  const next = unixOrDate(backups.next_backup);
  const issues = answer.data?.security?.notice_count ?? 0;
  const facts: string[] = [];
  if (when) {
    facts.push(
      typeof backups.size === 'number'
        ? // translators: 1: date and time, 2: size.
          sprintf(__('Last backup: %1$s (%2$s)', 'siteward'), dateTime(when), fileSize(backups.size))
        : // translators: %s: date and time.
          sprintf(__('Last backup: %s', 'siteward'), dateTime(when)),
    );
  }
  // translators: %d: how many backups are kept.
  if (typeof backups.count === 'number') facts.push(sprintf(__('Backups kept: %d', 'siteward'), backups.count));
  // translators: %s: date and time.
  if (next) facts.push(sprintf(__('Next backup: %s', 'siteward'), dateTime(next)));
  return (
    <>
      <p data-testid="backups-message" className={backups.status === 'failed' ? 'sw-status-down' : undefined}>
        {answer.message}
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

function BackupsCard() {
  const data = useRest<VaultPressData>(VAULTPRESS_DATA, { live: true });
  return (
    <GlanceCard title={__('Backups', 'siteward')} id="backups">
      <Loaded
        load={data}
        loading={__('Loading backups…', 'siteward')}
        failed={(error) =>
          isMissingRoute(error) ? (
            <p className="sw-muted">{__('Backup status is not available from this server yet.', 'siteward')}</p>
          ) : error.code === 'not_active' ? (
            <p className="sw-muted">{__('Backups are not active on this site.', 'siteward')}</p>
          ) : undefined
        }
      >
        {(answer) => <BackupsSummary answer={answer} />}
      </Loaded>
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

function SpamStats({ stats }: { stats: AkismetStats }) {
  if (typeof stats === 'string') return <p className="sw-muted">{akismetCodeText(stats)}</p>;
  const all = stats.all ?? {};
  if (!all.spam && !all.ham) return <p className="sw-muted">{__('No spam caught yet.', 'siteward')}</p>;
  return (
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

function SpamCard() {
  // Kept on the 2016 name: the 4.3+ `module/akismet/data` answers only the spam count, and this card shows accuracy and time saved too.
  const stats = useRest<AkismetStats>(jp('akismet/stats/get'), { live: true });
  return (
    <GlanceCard title={__('Spam', 'siteward')} id="spam">
      <Loaded
        load={stats}
        loading={__('Loading spam statistics…', 'siteward')}
        failed={(error) =>
          isMissingRoute(error) ? (
            <p className="sw-muted">{__('Spam statistics are not available from this server yet.', 'siteward')}</p>
          ) : undefined
        }
      >
        {(data) => <SpamStats stats={data} />}
      </Loaded>
    </GlanceCard>
  );
}

function UpdatesCard() {
  const updates = useRest<PluginUpdates>(jp('updates/plugins'));
  return (
    <GlanceCard title={__('Plugin updates', 'siteward')} id="updates">
      <Loaded
        load={updates}
        loading={__('Loading plugin updates…', 'siteward')}
        failed={(error) =>
          isMissingRoute(error) ? (
            <p className="sw-muted">{__('Plugin update checks are not available from this server yet.', 'siteward')}</p>
          ) : error.code === 'not_found' ? (
            <p className="sw-muted">{error.message}</p>
          ) : undefined
        }
      >
        {(data) =>
          data.code === 'updates-available' ? (
            <>
              <p className="sw-big" data-testid="updates-count">
                {data.count}
              </p>
              <p>{updatesText(data.count)}</p>
            </>
          ) : (
            <p data-testid="updates-message">{updatesText(0)}</p>
          )
        }
      </Loaded>
    </GlanceCard>
  );
}

export function Dashboard() {
  return (
    <div className="sw-grid">
      <ConnectionCard />
      <AgentClientsCard />
      <ProtectCard />
      <MonitorCard />
      <BackupsCard />
      <SpamCard />
      <UpdatesCard />
      <RecentActivityCard />
    </div>
  );
}
