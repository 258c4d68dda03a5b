/**
 * The Protect screen: who is blocked (address or IPv6 /64, failures, usernames tried, first and
 * last attempt, until when, escalation), lifting one block or all, the recent failed attempts,
 * and which administrators are e-mailed about new blocks (at most one digest an hour).
 */
import { Button, Notice, ToggleControl } from '@wordpress/components';
import { TitledCard } from './ui/TitledCard';
import { __, _n, sprintf } from '@wordpress/i18n';
import { addQueryArgs } from '@wordpress/url';
import { useState } from 'react';
import { api, type ApiError, type CollectionPage } from './api';
import { PROTECT_HISTORY } from './Dashboard';
import { useInvalidate, useRest } from './data/use-rest';
import { useNotify } from './site';
import type { ProtectAttempt, ProtectBlock, ProtectNotificationsAnswer } from './types';
import { ChoiceList } from './ui/form-rows';
import { dateTime as when } from './ui/format';
import { Loaded } from './ui/Loaded';
import { Pager } from './ui/Pager';

const P = '/siteward/v1/protect';
const PER_PAGE = 10;

type Block = ProtectBlock;
type Attempt = ProtectAttempt;
type Notifications = ProtectNotificationsAnswer;

/** `rest:boss` → "boss (admin page)", `cli` → "the command line", `link:ann` → "ann’s unlock link". */
function liftedByText(by: string | null): string {
  if (by === null) return '';
  if (by === 'cli') return __('the command line', 'siteward');
  // translators: %s: a username.
  if (by.startsWith('rest:')) return sprintf(__('%s (admin page)', 'siteward'), by.slice(5));
  // translators: %s: a username.
  if (by.startsWith('link:')) return sprintf(__('an unlock link e-mailed to %s', 'siteward'), by.slice(5));
  return by;
}

function statusText(b: Block): string {
  // translators: %s: date and time.
  if (b.active) return sprintf(__('Blocked until %s', 'siteward'), when(b.blocked_until));
  // translators: 1: date and time, 2: who lifted the block.
  if (b.lifted_at !== null) return sprintf(__('Lifted %1$s by %2$s', 'siteward'), when(b.lifted_at), liftedByText(b.lifted_by));
  // translators: %s: date and time.
  return sprintf(__('Ended %s', 'siteward'), when(b.blocked_until));
}

function BlockRow({ block, onUnblock, busy }: { block: Block; onUnblock: (address: string) => void; busy: boolean }) {
  return (
    <li className="sw-protect-row" data-testid="protect-block">
      <div className="sw-protect-head">
        <code className="sw-break">{block.address}</code>
        {block.level === 2 && <span className="sw-badge sw-badge-down">{__('Escalated', 'siteward')}</span>}
        <span className={block.active ? 'sw-status-down' : 'sw-muted'}>{statusText(block)}</span>
        {block.active && (
          <Button
            variant="secondary"
            size="compact"
            className="sw-protect-unblock"
            onClick={() => onUnblock(block.address)}
            disabled={busy}
            isBusy={busy}
          >
            {__('Unblock', 'siteward')}
            <span className="sw-visually-hidden"> {block.address}</span>
          </Button>
        )}
      </div>
      <dl className="sw-protect-facts">
        <dt>{__('Failed logins', 'siteward')}</dt>
        <dd>
          {block.blocked_attempts > 0
            ? // translators: 1: failed logins, 2: attempts refused while blocked.
              sprintf(
                _n('%1$d, then %2$d attempt refused', '%1$d, then %2$d attempts refused', block.blocked_attempts, 'siteward'),
                block.failures,
                block.blocked_attempts,
              )
            : String(block.failures)}
        </dd>
        <dt>{__('Usernames tried', 'siteward')}</dt>
        <dd className="sw-break">{block.usernames.length > 0 ? block.usernames.join(', ') : '—'}</dd>
        <dt>{__('First and last attempt', 'siteward')}</dt>
        <dd>
          {when(block.first_attempt)} – {when(block.last_attempt)}
        </dd>
        {block.last_address !== block.address && (
          <>
            <dt>{__('Last address', 'siteward')}</dt>
            <dd className="sw-break">{block.last_address}</dd>
          </>
        )}
      </dl>
    </li>
  );
}

function BlocksCard() {
  const { notify } = useNotify();
  const [page, setPage] = useState(1);
  const [recent, setRecent] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const invalidate = useInvalidate();
  const list = useRest<CollectionPage<Block>>(
    addQueryArgs(`${P}/blocks`, { page, per_page: PER_PAGE, active: recent ? undefined : true }),
    {
      page: true,
    },
  );

  const lift = async (address: string | null) => {
    setBusy(address ?? '*');
    setProblem(null);
    try {
      if (address === null) {
        const answer = await api<{ unblocked: string[] }>(`${P}/blocks`, { method: 'DELETE' });
        // translators: %d: how many addresses.
        notify({
          status: 'success',
          text: sprintf(
            _n('%d address unblocked.', '%d addresses unblocked.', answer.unblocked.length, 'siteward'),
            answer.unblocked.length,
          ),
        });
      } else {
        await api(`${P}/blocks/${address}`, { method: 'DELETE' });
        // translators: %s: an IP address.
        notify({ status: 'success', text: sprintf(__('%s is unblocked: it may log in again.', 'siteward'), address) });
      }
      setPage(1);
      invalidate(`${P}/blocks`, PROTECT_HISTORY);
    } catch (error) {
      setProblem((error as ApiError).message);
    } finally {
      setBusy(null);
    }
  };

  return (
    <TitledCard title={recent ? __('Current and recent blocks', 'siteward') : __('Blocked addresses', 'siteward')} testId="protect-blocks">
      <ToggleControl
        __nextHasNoMarginBottom
        label={__('Show recent blocks too', 'siteward')}
        checked={recent}
        onChange={(on) => {
          setRecent(on);
          setPage(1);
        }}
      />
      {problem !== null && (
        <Notice status="error" onRemove={() => setProblem(null)}>
          {problem}
        </Notice>
      )}
      <Loaded load={list} loading={__('Loading blocks…', 'siteward')}>
        {(data) => (
          <>
            <p data-testid="protect-summary">
              {data.total === 0
                ? recent
                  ? __('No address was blocked lately.', 'siteward')
                  : __('No address is blocked.', 'siteward')
                : recent
                  ? // translators: %d: how many blocks.
                    sprintf(_n('%d block, current or recent.', '%d blocks, current or recent.', data.total, 'siteward'), data.total)
                  : // translators: %d: how many addresses.
                    sprintf(_n('%d address is blocked.', '%d addresses are blocked.', data.total, 'siteward'), data.total)}
            </p>
            {data.items.length > 0 && (
              <ul className="sw-protect-list">
                {data.items.map((b) => (
                  <BlockRow key={`${b.address}-${b.blocked_at}`} block={b} onUnblock={(a) => void lift(a)} busy={busy !== null} />
                ))}
              </ul>
            )}
            <Pager page={page} totalPages={data.totalPages} onPage={setPage} label={__('Pages of blocks', 'siteward')} />
            {!recent && data.total > 1 && (
              <div className="sw-actions">
                <Button
                  variant="secondary"
                  onClick={() => void lift(null)}
                  disabled={busy !== null}
                  isBusy={busy === '*'}
                  __next40pxDefaultSize
                >
                  {__('Unblock all', 'siteward')}
                </Button>
              </div>
            )}
          </>
        )}
      </Loaded>
      <p className="sw-help">
        {__(
          'Locked out yourself? The login page offers an unlock link by e-mail when e-mail is set up. On the server, in Siteward’s directory, this command lifts a block at once:',
          'siteward',
        )}{' '}
        <code className="sw-break">npx siteward protect unblock &lt;address&gt;</code>
      </p>
    </TitledCard>
  );
}

/** What went wrong, named as what it is. */
function attemptLabel(a: Attempt): string {
  if (a.failure === 'challenge') return __('refused: browser check not passed', 'siteward');
  if (a.outcome === 'refused') return __('refused: blocked', 'siteward');
  if (a.failure === 'code') return __('wrong two-factor code', 'siteward');
  if (a.failure === 'recovery_code') return __('wrong or used recovery code', 'siteward');
  return __('wrong password', 'siteward');
}

function AttemptsCard() {
  const [page, setPage] = useState(1);
  const list = useRest<CollectionPage<Attempt>>(addQueryArgs(`${P}/attempts`, { page, per_page: PER_PAGE }), { page: true });
  return (
    <TitledCard title={__('Recent failed logins', 'siteward')} testId="protect-attempts">
      <Loaded load={list} loading={__('Loading failed logins…', 'siteward')}>
        {(data) =>
          data.items.length === 0 ? (
            <p className="sw-muted">{__('No failed logins lately.', 'siteward')}</p>
          ) : (
            <>
              <ul className="sw-protect-attempts">
                {data.items.map((a, i) => (
                  <li key={`${a.at}-${i}`}>
                    <span>{when(a.at)}</span>
                    <code className="sw-break">{a.address}</code>
                    <span className="sw-break">{a.login === '' ? '—' : a.login}</span>
                    <span className={a.outcome === 'refused' ? 'sw-status-down' : 'sw-muted'}>{attemptLabel(a)}</span>
                  </li>
                ))}
              </ul>
              <Pager page={page} totalPages={data.totalPages} onPage={setPage} label={__('Pages of failed logins', 'siteward')} />
            </>
          )
        }
      </Loaded>
    </TitledCard>
  );
}

function NotificationsCard({ settings }: { settings: Notifications }) {
  const { notify } = useNotify();
  const invalidate = useInvalidate();
  const [chosen, setChosen] = useState<number[]>([...settings.administrators]);
  const [webhook, setWebhook] = useState(settings.webhook);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      await api(`${P}/notifications`, { method: 'POST', data: { administrators: chosen, webhook } });
      invalidate(`${P}/notifications`);
      notify({ status: 'success', text: __('Notification settings saved.', 'siteward') });
    } catch (error) {
      // translators: %s: why the server refused.
      notify({ status: 'error', text: sprintf(__('Not saved: %s', 'siteward'), (error as ApiError).message) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <TitledCard title={__('When an address is blocked', 'siteward')}>
      {!settings.mail_configured && (
        <p className="sw-muted">{__('E-mail is not configured (SITEWARD_SMTP_URL), so no e-mail can be sent.', 'siteward')}</p>
      )}
      <ChoiceList
        legend={__('Administrators who get an e-mail (one digest an hour at most)', 'siteward')}
        choices={settings.choices}
        chosen={chosen}
        onChange={setChosen}
        testId="protect-admins"
      />
      <ToggleControl
        __nextHasNoMarginBottom
        label={__('Also post to the Monitor webhook', 'siteward')}
        help={
          settings.webhook_configured
            ? __('The same URL and format as Monitor’s notifications.', 'siteward')
            : __('No webhook is set (SITEWARD_MONITOR_WEBHOOK).', 'siteward')
        }
        checked={webhook}
        disabled={!settings.webhook_configured}
        onChange={setWebhook}
      />
      <div className="sw-actions">
        <Button variant="primary" onClick={() => void save()} isBusy={busy} disabled={busy} __next40pxDefaultSize>
          {__('Save', 'siteward')}
        </Button>
      </div>
    </TitledCard>
  );
}

export function ProtectScreen() {
  const notifications = useRest<Notifications>(`${P}/notifications`);
  return (
    <div className="sw-stack" data-testid="protect-screen">
      <BlocksCard />
      <AttemptsCard />
      <Loaded load={notifications} loading={__('Loading notification settings…', 'siteward')}>
        {(settings) => <NotificationsCard settings={settings} />}
      </Loaded>
    </div>
  );
}
