/**
 * The Backups screen: this store's backups in each target (the local directory, the bucket)
 * with their status and last verification, "Back up now", and a download of each backup
 * exactly as stored (encrypted when it is) for administrators.
 */
import { Button, Card, CardBody, CardHeader, Notice } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';
import { addQueryArgs } from '@wordpress/url';
import { useEffect, useRef, useState } from 'react';
import { api, type ApiError } from './api';
import { VAULTPRESS_DATA } from './Dashboard';
import { useInvalidate, useRest } from './data/use-rest';
import type { BackupsList, BackupTargetList, BackupTargetState, VaultPressData } from './types';
import { fileSize, unixTime as at } from './ui/format';
import { Loaded } from './ui/Loaded';

const BACKUPS = '/siteward/v1/backups';
// translators: %s: a directory or a bucket.
const targetTitle = (t: { kind: string; where: string }) =>
  sprintf(t.kind === 'local' ? __('Local directory %s', 'siteward') : __('Off-site %s', 'siteward'), t.where);

function TargetCard({ list, state }: { list: BackupTargetList; state: BackupTargetState | undefined }) {
  return (
    <Card className="sw-card" data-testid={`backups-target-${list.kind}`}>
      <CardHeader size="small">
        <h2 className="sw-card-title sw-break">{targetTitle(list)}</h2>
      </CardHeader>
      <CardBody size="small">
        {state?.status === 'failed' && state.last_failure && (
          <p className="sw-status-down" data-testid="backups-target-failure">
            {/* translators: 1: date and time, 2: what went wrong. */}
            {sprintf(
              __('The last backup did not reach this target (%1$s): %2$s', 'siteward'),
              at(state.last_failure.time),
              state.last_failure.message,
            )}
          </p>
        )}
        {state?.verification && (
          <p className={state.verification.ok ? undefined : 'sw-status-down'} data-testid="backups-target-verification">
            {state.verification.ok
              ? // translators: 1: date and time, 2: the backup's id, 3: what the verification found.
                sprintf(
                  __('Verified %1$s: backup %2$s %3$s.', 'siteward'),
                  at(state.verification.time),
                  state.verification.id ?? '',
                  state.verification.message,
                )
              : // translators: 1: date and time, 2: what went wrong.
                sprintf(__('Verification failed %1$s: %2$s', 'siteward'), at(state.verification.time), state.verification.message)}
          </p>
        )}
        {list.error !== null && <p className="sw-status-down">{list.error}</p>}
        {list.error === null && list.backups.length === 0 && <p className="sw-muted">{__('No backups here yet.', 'siteward')}</p>}
        {list.backups.length > 0 && (
          <ul className="sw-backup-list">
            {list.backups.map((b) => (
              <li key={b.id} className="sw-backup-row" data-testid="backup-row">
                <span className="sw-backup-time">{at(b.time)}</span>
                <span className="sw-backup-size">{fileSize(b.size)}</span>
                <span className={b.status === 'ok' ? 'sw-backup-ok' : 'sw-status-down'}>
                  {/* translators: %s: what is wrong with the backup. */}
                  {b.status === 'ok' ? __('Complete', 'siteward') : sprintf(__('Damaged: %s', 'siteward'), b.problem ?? '')}
                </span>
                {b.encrypted !== null && (
                  <span className={b.encrypted ? 'sw-backup-ok' : 'sw-muted'} data-testid="backup-encrypted">
                    {b.encrypted ? __('Encrypted', 'siteward') : __('Not encrypted', 'siteward')}
                  </span>
                )}
                {b.verification && (
                  <span className={b.verification.ok ? 'sw-backup-ok' : 'sw-status-down'} data-testid="backup-verified">
                    {b.verification.ok ? __('Verified', 'siteward') : __('Verification failed', 'siteward')}
                  </span>
                )}
                <a className="sw-backup-download" href={addQueryArgs('/admin/backups/download', { target: list.kind, id: b.id })} download>
                  {__('Download', 'siteward')}
                  {/* translators: %s: date and time of the backup. */}
                  <span className="sw-visually-hidden"> {sprintf(__('backup of %s', 'siteward'), at(b.time))}</span>
                </a>
                <code className="sw-backup-id">{b.id}</code>
              </li>
            ))}
          </ul>
        )}
      </CardBody>
    </Card>
  );
}

export function BackupsScreen() {
  const list = useRest<BackupsList>(BACKUPS);
  const status = useRest<VaultPressData>(VAULTPRESS_DATA);
  const invalidate = useInvalidate();
  const [starting, setStarting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const running = list.state === 'ok' && list.data.running;
  const shown = list.state === 'ok' ? list.data : null;
  const { reload } = list;

  // While a backup runs, look again two seconds after each answer (the summary once it ends).
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(reload, 2000);
    return () => clearTimeout(timer);
  }, [running, shown, reload]);
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && !running) invalidate(VAULTPRESS_DATA);
    wasRunning.current = running;
  }, [running, invalidate]);

  const backUpNow = async () => {
    setStarting(true);
    setProblem(null);
    try {
      await api(BACKUPS, { method: 'POST' });
      invalidate(BACKUPS, VAULTPRESS_DATA);
    } catch (error) {
      setProblem((error as ApiError).message);
    } finally {
      setStarting(false);
    }
  };

  const summary = status.state === 'ok' ? status.data : null;
  const states = summary?.data?.backups?.targets ?? [];
  return (
    <Loaded load={list} loading={__('Loading backups…', 'siteward')}>
      {(data) => (
        <div className="sw-backups" data-testid="backups-screen">
          <p data-testid="backups-summary" className={summary?.data?.backups?.status === 'failed' ? 'sw-status-down' : undefined}>
            {summary?.message ?? ''}
          </p>
          <ul className="sw-facts">
            {/* translators: 1: the store's id, 2: the database (PostgreSQL or SQLite). */}
            <li className="sw-break">
              {sprintf(__('Store %1$s (%2$s)', 'siteward'), data.store_id, data.backend === 'postgres' ? 'PostgreSQL' : 'SQLite')}
            </li>
            <li data-testid="backups-encryption">
              {data.encrypted
                ? __('New backups are encrypted before they are written or uploaded; each backup below says whether it is.', 'siteward')
                : __(
                    'New backups are not encrypted (set SITEWARD_BACKUP_ENCRYPTION_KEY to encrypt them); each backup below says whether it is.',
                    'siteward',
                  )}
            </li>
            <li data-testid="backups-restore-help">
              {__('To restore a backup: stop the server, run', 'siteward')} <code>npx siteward backup restore &lt;id&gt;</code>{' '}
              {__('in its directory (add', 'siteward')} <code>--from-store &lt;store id&gt;</code>{' '}
              {__('for a backup of another store), then start the server again.', 'siteward')}
            </li>
          </ul>
          <div className="sw-backups-actions">
            <Button variant="primary" onClick={() => void backUpNow()} disabled={starting || running} isBusy={starting || running}>
              {running ? __('Backing up…', 'siteward') : __('Back up now', 'siteward')}
            </Button>
          </div>
          {problem !== null && (
            <Notice status="error" onRemove={() => setProblem(null)}>
              {problem}
            </Notice>
          )}
          {data.targets.map((t) => (
            <TargetCard key={`${t.kind}:${t.where}`} list={t} state={states.find((s) => s.kind === t.kind && s.where === t.where)} />
          ))}
        </div>
      )}
    </Loaded>
  );
}
