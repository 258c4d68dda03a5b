/** The Single Sign On module's panel: which account service, which users, and the address to register there (siteward/v1/sso). */
import { Notice } from '@wordpress/components';
import { __, _n, sprintf } from '@wordpress/i18n';
import { useEffect, useRef } from 'react';
import { useRest } from './data/use-rest';
import type { SsoOverview } from './types';
import { Loaded } from './ui/Loaded';

export function SsoStatus({ activated }: { activated: boolean }) {
  const sso = useRest<SsoOverview>('/siteward/v1/sso');
  const { reload } = sso;
  // Turning the module on or off changes what the overview says.
  const seen = useRef(activated);
  useEffect(() => {
    if (seen.current !== activated) reload();
    seen.current = activated;
  }, [activated, reload]);
  return (
    <Loaded load={sso} loading={__('Loading…', 'siteward')}>
      {(s) => <Overview s={s} />}
    </Loaded>
  );
}

function Overview({ s }: { s: SsoOverview }) {
  if (!s.configured || s.provider === null) {
    return (
      <Notice status="warning" isDismissible={false}>
        {__('No account service is configured (SITEWARD_ACCOUNTS_ISSUER), so there is nothing to log in with.', 'siteward')}
      </Notice>
    );
  }
  return (
    <div className="sw-sso" data-testid="sso-status">
      <p>
        {
          // translators: 1: the account service's name, 2: its issuer URL.
          sprintf(__('Account service: %1$s (%2$s).', 'siteward'), s.provider, s.issuer ?? '')
        }
      </p>
      <p>
        {s.active
          ? // translators: %s: the account service's name.
            sprintf(__('The login page offers “Log in with %s”.', 'siteward'), s.provider)
          : __('Turn the module on to offer it on the login page.', 'siteward')}{' '}
        {
          // translators: %d: how many users of this site are linked to the account service.
          sprintf(
            _n(
              '%d user of this site is linked and can log in with it.',
              '%d users of this site are linked and can log in with it.',
              s.linkedUsers,
              'siteward',
            ),
            s.linkedUsers,
          )
        }{' '}
        {s.matchByEmail
          ? __(
              'Users not linked yet are linked on first use when the account service has verified an e-mail address they have here.',
              'siteward',
            )
          : __('Only linked users get in: each links their own account from the dashboard.', 'siteward')}{' '}
        {__('Nobody else is logged in, and no account is ever created.', 'siteward')}
      </p>
      <p>
        {__(
          'Logging in there is a first factor, like a password: users with two-factor on this site are still asked for their code, and Require Two-Step Authentication makes every administrator use it.',
          'siteward',
        )}
      </p>
      <p>
        {__('Sign-in address to register at the account service (beside /connect/callback):', 'siteward')} <code>{s.redirectUri}</code>
      </p>
      {!s.ready && (
        <Notice status="warning" isDismissible={false}>
          {
            // translators: %s: why sign-in cannot be used yet.
            sprintf(
              __(
                'Sign-in cannot be used yet: %s. Register the address above at the account service, or disconnect and connect the site again so that it registers itself with it.',
                'siteward',
              ),
              s.problem ?? '',
            )
          }
        </Notice>
      )}
    </div>
  );
}
