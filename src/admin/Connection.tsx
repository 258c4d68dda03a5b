/**
 * The Connection card of At a Glance: the site's connection to the account service and the
 * user's own link. Every state says what it means and who can change it: an editor learns that
 * an administrator connects the site and that anyone links their own account; the master user
 * learns why their account cannot be unlinked and that disconnecting the site is the way.
 */
import { Button } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';
import { useState, type ReactNode } from 'react';
import { api, ApiError, jp } from './api';
import { ConfirmDialog } from './ConfirmDialog';
import { GlanceCard } from './GlanceCard';
import { useRest } from './data/use-rest';
import { errorText, useConnection, useNotify, useSiteActions } from './site';
import type { UserData } from './types';

/** Connection notices replace each other: "…is linked" must not stay beside "…is unlinked". */
const TOPIC = 'connection';

/** Why `/unlink` refused (the wire says "Was not able to unlink the user. Please try again."), from the user's state after it. */
function unlinkRefusal(after: UserData | null): string {
  if (after?.currentUser.isMaster) {
    return __(
      'Your account was not unlinked: it is the master user’s, and the site’s connection goes through it. To unlink it, disconnect the site.',
      'siteward',
    );
  }
  if (after && !after.currentUser.isConnected) return __('Your account is not linked.', 'siteward');
  return __('Your account was not unlinked: the account service did not confirm it. Try again later.', 'siteward');
}

/** The plan's short name in `jetpack/v4/site`'s `data` (a JSON string), or null. */
function planName(data: string): string | null {
  try {
    const site = JSON.parse(data) as { plan?: { product_name_short?: string } };
    return site.plan?.product_name_short ?? null;
  } catch {
    return null;
  }
}

export function ConnectionCard() {
  const { connection, user, accountService } = useConnection();
  const { notify } = useNotify();
  const { refresh } = useSiteActions();
  const [working, setWorking] = useState<string | null>(null);
  const [confirmDisconnect, setConfirmDisconnect] = useState(false);
  const me = user.currentUser;
  const dev = connection.devMode;
  const site = useRest<{ data: string }>(connection.isActive ? jp('site') : null);
  const plan = site.state === 'ok' ? planName(site.data.data) : null;
  const run = async (what: string, action: () => Promise<void>) => {
    setWorking(what);
    try {
      await action();
    } catch (error) {
      notify({ status: 'error', text: errorText(error), topic: TOPIC });
    } finally {
      setWorking(null);
    }
  };
  const connect = () =>
    run('connect', async () => {
      const url = await api<string>(jp('connection/url'));
      window.location.assign(url);
    });
  const disconnect = () =>
    run('disconnect', async () => {
      await api(jp('connection'), { method: 'POST', data: { isActive: false } });
      setConfirmDisconnect(false);
      await refresh();
      notify({ status: 'success', text: __('The site is disconnected.', 'siteward'), topic: TOPIC });
    });
  const unlink = () =>
    run('unlink', async () => {
      try {
        await api(jp('connection/user'), { method: 'POST', data: { linked: false } });
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'unlink_user_failed') throw error;
        const after = await api<UserData>(jp('connection/data')).catch(() => null);
        await refresh().catch(() => undefined);
        notify({ status: 'error', text: unlinkRefusal(after), topic: TOPIC });
        return;
      }
      await refresh();
      notify({ status: 'success', text: __('Your account is unlinked.', 'siteward'), topic: TOPIC });
    });

  const connectButton = (label: string) => (
    <Button variant="primary" id="connect" isBusy={working === 'connect'} disabled={working !== null} onClick={() => void connect()}>
      {label}
    </Button>
  );

  let body: ReactNode;
  if (dev.isActive) {
    const why = dev.constant
      ? __(
          'The site works without the account service because the offline-mode setting (SITEWARD_OFFLINE) is on. Modules that need a connection are unavailable.',
          'siteward',
        )
      : dev.url
        ? __(
            'The site works without the account service because the site address has no dot in its host name, so it cannot be reached from the internet. Modules that need a connection are unavailable.',
            'siteward',
          )
        : __(
            'The site works without the account service because a plugin turned it on. Modules that need a connection are unavailable.',
            'siteward',
          );
    body = (
      <p data-testid="connection-state">
        <strong>{__('Offline mode.', 'siteward')}</strong> {why}
      </p>
    );
  } else if (!connection.isActive && !accountService) {
    // Said up front, as the Backups and Spam cards say what they miss: no button that can only fail.
    body = (
      <p data-testid="connection-state">
        {__(
          'The site is not connected, and cannot be: no account service is configured. Set SITEWARD_ACCOUNTS_ISSUER (and its client settings, see README) and restart Siteward to connect it. Everything else works without it.',
          'siteward',
        )}
      </p>
    );
  } else if (!connection.isActive) {
    body = (
      <>
        <p data-testid="connection-state">{__('The site is not connected to the account service.', 'siteward')}</p>
        {me.permissions.connect ? (
          connectButton(__('Connect to the account service', 'siteward'))
        ) : (
          <p className="sw-muted" data-testid="connection-why">
            {__(
              'Only an administrator can connect the site. Ask one of the site’s administrators to connect it; then you can link your own account here.',
              'siteward',
            )}
          </p>
        )}
      </>
    );
  } else {
    const who = me.wpcomUser?.login ?? me.wpcomUser?.email ?? __('your account', 'siteward');
    body = (
      <>
        <p data-testid="connection-state">
          {plan
            ? // translators: %s: the plan's name.
              sprintf(__('The site is connected. Plan: %s.', 'siteward'), plan)
            : __('The site is connected.', 'siteward')}
        </p>
        {!me.isConnected ? (
          // Linking one's own account needs no administrator once the site is connected (permissions.connect is about connecting the site).
          <p data-testid="connection-why">
            {__('Your account is not linked. Any user of the site can link their own account to the account service.', 'siteward')}
          </p>
        ) : me.isMaster ? (
          <>
            {/* translators: %s: the linked account's login or e-mail address. */}
            <p>{sprintf(__('You are linked as %s — the master user.', 'siteward'), who)}</p>
            <p className="sw-muted" data-testid="connection-why">
              {me.permissions.disconnect
                ? __(
                    'The site’s connection goes through your account, so it cannot be unlinked on its own. To unlink it, disconnect the site.',
                    'siteward',
                  )
                : __(
                    'The site’s connection goes through your account, so it cannot be unlinked on its own. To unlink it, an administrator must disconnect the site.',
                    'siteward',
                  )}
            </p>
          </>
        ) : (
          // translators: %s: the linked account's login or e-mail address.
          <p>{sprintf(__('You are linked as %s.', 'siteward'), who)}</p>
        )}
        <div className="sw-actions">
          {!me.isConnected && connectButton(__('Link your account', 'siteward'))}
          {me.isConnected && !me.isMaster && (
            <Button variant="secondary" isBusy={working === 'unlink'} disabled={working !== null} onClick={() => void unlink()}>
              {__('Unlink your account', 'siteward')}
            </Button>
          )}
          {me.permissions.disconnect && (
            <Button variant="secondary" isDestructive disabled={working !== null} onClick={() => setConfirmDisconnect(true)}>
              {__('Disconnect the site', 'siteward')}
            </Button>
          )}
        </div>
        {confirmDisconnect && (
          <ConfirmDialog
            title={__('Disconnect the site?', 'siteward')}
            confirmLabel={__('Disconnect the site', 'siteward')}
            destructive
            busy={working === 'disconnect'}
            onConfirm={() => void disconnect()}
            onCancel={() => setConfirmDisconnect(false)}
          >
            <p>
              {__(
                'Modules that need the connection stop working, and every linked account is unlinked. An administrator can connect the site again later.',
                'siteward',
              )}
            </p>
          </ConfirmDialog>
        )}
      </>
    );
  }
  return (
    <GlanceCard title={__('Connection', 'siteward')} id="connection">
      {body}
    </GlanceCard>
  );
}
