/** The Jump Start offer (with undo) and the dismissible notices `welcome` and `feedback_dash_request`. */
import { Button, Notice } from '@wordpress/components';
import { __, _n, sprintf } from '@wordpress/i18n';
import { useState } from 'react';
import { api, jp } from './api';
import { dismissedMap, errorText, useConnection, useModuleActions, useModules, useNotify, usePageChoices, useSiteActions } from './site';
import { turnOnLabel } from './words';

const stripTags = (html: string) => html.replace(/<[^>]*>/g, '');

interface JumpstartAnswer {
  code: string;
  message: string;
  data?: { activated_modules?: string[]; failed_modules?: string[] };
}

export function JumpStart() {
  const { modules } = useModules();
  const { showJumpstart } = usePageChoices();
  const { setShowJumpstart, refresh } = useSiteActions();
  const { notify, removeNotice } = useNotify();
  const { toggleModule } = useModuleActions();
  const { user } = useConnection();
  const [working, setWorking] = useState(false);
  if (!showJumpstart || user.currentUser.permissions.manage_modules === false) return null;
  const set = Object.values(modules).filter((m) => m.feature.includes('Jumpstart') && m.available);
  const toTurnOn = set.filter((m) => !m.activated).length;

  const activate = async () => {
    setWorking(true);
    const before = new Set(
      Object.values(modules)
        .filter((m) => m.activated)
        .map((m) => m.module),
    );
    try {
      const answer = await api<JumpstartAnswer>(jp('jumpstart'), { method: 'POST', data: { active: true } });
      setShowJumpstart(false);
      await refresh();
      const turnedOn = (answer.data?.activated_modules ?? []).filter((slug) => !before.has(slug));
      const id = notify({
        status: 'success',
        text:
          turnedOn.length > 0
            ? // translators: 1: how many features, 2: their names, comma-separated.
              sprintf(
                _n('Jump Start turned on %1$d feature: %2$s.', 'Jump Start turned on %1$d features: %2$s.', turnedOn.length, 'siteward'),
                turnedOn.length,
                turnedOn.map((s) => modules[s]?.name ?? s).join(', '),
              )
            : __('Jump Start done: the recommended features were already on.', 'siteward'),
        actions:
          turnedOn.length > 0
            ? [
                {
                  label: __('Undo', 'siteward'),
                  onClick: () => {
                    removeNotice(id);
                    void (async () => {
                      const results = await Promise.all(turnedOn.map((slug) => toggleModule(slug, false)));
                      if (results.every(Boolean))
                        notify({ status: 'info', text: __('Undone: the features Jump Start turned on are off again.', 'siteward') });
                    })();
                  },
                },
              ]
            : [],
      });
    } catch (error) {
      await refresh().catch(() => undefined);
      // translators: %s: why Jump Start failed.
      notify({ status: 'error', text: sprintf(__('Jump Start: %s', 'siteward'), errorText(error)) });
    } finally {
      setWorking(false);
    }
  };
  const dismiss = async () => {
    setWorking(true);
    try {
      await api(jp('jumpstart'), { method: 'POST', data: { active: false } });
      setShowJumpstart(false);
    } catch (error) {
      notify({ status: 'error', text: errorText(error) });
    } finally {
      setWorking(false);
    }
  };

  return (
    <section className="sw-jumpstart" aria-labelledby="jumpstart-title" data-testid="jumpstart">
      <h2 id="jumpstart-title">{__('Jump Start your site', 'siteward')}</h2>
      <p>{__('One click turns on the features most sites use:', 'siteward')}</p>
      <ul className="sw-jumpstart-list">
        {set.map((m) => (
          <li key={m.module}>
            <strong>{m.name}</strong>
            {m.activated && <> {__('(already on)', 'siteward')}</>}
            {m.runtime === 'site' && <> {__('(a setting for the site’s front end)', 'siteward')}</>} —{' '}
            {stripTags(m.jumpstart_desc || m.description)}
          </li>
        ))}
      </ul>
      <div className="sw-actions">
        <Button variant="primary" isBusy={working} disabled={working} onClick={() => void activate()} __next40pxDefaultSize>
          {turnOnLabel(toTurnOn, set.length)}
        </Button>
        <Button variant="tertiary" disabled={working} onClick={() => void dismiss()} __next40pxDefaultSize>
          {__('Not now', 'siteward')}
        </Button>
      </div>
    </section>
  );
}

/** Texts are read at render time: a translation loaded after this module still applies. */
const NOTICES: { name: 'welcome' | 'feedback_dash_request'; status: 'info' | 'success'; text: () => string }[] = [
  {
    name: 'welcome',
    status: 'success',
    text: () => __('Welcome to Siteward. Your modules, settings and the health of your site are all on this page.', 'siteward'),
  },
  {
    name: 'feedback_dash_request',
    status: 'info',
    text: () => __('How is the dashboard working for you? Tell the team what you would like to see here.', 'siteward'),
  },
];

export function DismissibleNotices() {
  const { dismissed } = usePageChoices();
  const { setDismissed } = useSiteActions();
  const { notify } = useNotify();
  const dismiss = async (name: string) => {
    const before = dismissed;
    setDismissed({ ...dismissed, [name]: true });
    try {
      const map = await api<unknown>(jp(`notice/${name}`), { method: 'POST', data: { dismissed: true } });
      setDismissed({ ...before, ...dismissedMap(map), [name]: true });
    } catch (error) {
      setDismissed(before);
      // translators: %s: why the server refused.
      notify({ status: 'error', text: sprintf(__('The notice could not be dismissed: %s', 'siteward'), errorText(error)) });
    }
  };
  return (
    <>
      {NOTICES.filter((n) => !dismissed[n.name]).map((n) => (
        <Notice key={n.name} status={n.status} onRemove={() => void dismiss(n.name)} className={`sw-notice sw-notice-${n.name}`}>
          {n.text()}
        </Notice>
      ))}
    </>
  );
}
