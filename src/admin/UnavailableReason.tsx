/** A module's reason for being unavailable, on Modules and on At a Glance. */
import { __ } from '@wordpress/i18n';
import type { ModuleRecord } from './types';

/**
 * Why a module is off and cannot be turned on, from its `unavailable_reason`: the page's own
 * words for the connection, the server's sentence for a service that is not set up (it names the
 * settings), and the settings to set.
 */
export function UnavailableReason({ mod, offline }: { mod: ModuleRecord; offline: boolean }) {
  const reason = mod.unavailable_reason ?? null;
  let text: string;
  if (reason?.code === 'not_configured') text = reason.message;
  else if (reason?.code === 'dev_mode' || (!reason && offline))
    text = __(
      'Needs a connection, and the site is in offline mode (SITEWARD_OFFLINE is set, or the home URL’s host has no dot).',
      'siteward',
    );
  else text = __('Needs a connection to the account service: connect the site on At a Glance.', 'siteward');
  // Listed apart only when the sentence does not already name them (a plugin's module may not).
  const settings = reason?.code === 'not_configured' && reason.settings.some((name) => !text.includes(name)) ? reason.settings : [];
  return (
    <div className="sw-module-reason" data-testid={`unavailable-${mod.module}`}>
      <p>
        <strong>{__('Unavailable:', 'siteward')}</strong> {text}
      </p>
      {settings.length > 0 && (
        <p className="sw-module-settings">
          {__('Settings:', 'siteward')}{' '}
          {settings.map((name, i) => (
            <span key={name}>
              {i > 0 && ', '}
              <code>{name}</code>
            </span>
          ))}
        </p>
      )}
    </div>
  );
}
