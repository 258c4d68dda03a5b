/** The page: header with navigation, notices, Jump Start, and the screen of the hash route. */
import { Notice } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';
import { useEffect, useRef, useState } from 'react';
import { DismissibleNotices, JumpStart } from './Banners';
import { BackupsScreen } from './Backups';
import { Dashboard } from './Dashboard';
import { useHashRoute, type Route } from './hooks';
import { ModulesScreen } from './Modules';
import { MonitorScreen } from './Monitor';
import { ProtectScreen } from './Protect';
import { SettingsScreen } from './Settings';
import { useSite } from './site';

function titleOf(route: Route, moduleName?: string): string {
  if (route.screen === 'modules') return route.slug ? (moduleName ?? __('Module', 'siteward')) : __('Modules', 'siteward');
  if (route.screen === 'settings') return __('Settings', 'siteward');
  if (route.screen === 'monitor') return __('Monitor', 'siteward');
  if (route.screen === 'backups') return __('Backups', 'siteward');
  if (route.screen === 'protect') return __('Protect', 'siteward');
  return __('At a Glance', 'siteward');
}

/** Labels are read at render time: a translation loaded after this module still applies. */
const TABS: { screen: Route['screen']; href: string; label: () => string }[] = [
  { screen: 'dashboard', href: '#/dashboard', label: () => __('At a Glance', 'siteward') },
  { screen: 'modules', href: '#/modules', label: () => __('Modules', 'siteward') },
  { screen: 'monitor', href: '#/monitor', label: () => __('Monitor', 'siteward') },
  { screen: 'protect', href: '#/protect', label: () => __('Protect', 'siteward') },
  { screen: 'settings', href: '#/settings', label: () => __('Settings', 'siteward') },
  { screen: 'backups', href: '#/backups', label: () => __('Backups', 'siteward') },
];

export function App({ serverNotice }: { serverNotice: { tone: 'success' | 'error'; text: string } | null }) {
  const route = useHashRoute();
  const { modules, notices, removeNotice, user } = useSite();
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  const title = titleOf(route, route.screen === 'modules' && route.slug ? modules[route.slug]?.name : undefined);
  const routeKey = route.screen === 'modules' ? `modules/${route.slug ?? ''}` : route.screen;

  // Title and focus follow navigation (not on the first screen: focus stays where the browser put it).
  useEffect(() => {
    // translators: %s: the screen's title.
    document.title = sprintf(__('%s ‹ Siteward', 'siteward'), title);
    if (first.current) {
      first.current = false;
      return;
    }
    heading.current?.focus();
    window.scrollTo(0, 0);
  }, [routeKey, title]);

  const [serverNoticeShown, setServerNoticeShown] = useState(serverNotice !== null);

  return (
    <>
      <a
        className="sw-skip"
        href="#sw-main"
        onClick={(e) => {
          e.preventDefault();
          heading.current?.focus();
        }}
      >
        {__('Skip to content', 'siteward')}
      </a>
      <header className="sw-header">
        <div className="sw-header-inner">
          <strong className="sw-brand">Siteward</strong>
          <nav aria-label={__('Admin sections', 'siteward')} className="sw-nav">
            {TABS.map((tab) => (
              <a key={tab.screen} href={tab.href} className="sw-nav-link" aria-current={route.screen === tab.screen ? 'page' : undefined}>
                {tab.label()}
              </a>
            ))}
          </nav>
          <form method="post" action="/logout" className="sw-user">
            <span className="sw-user-name">{user.currentUser.username}</span>
            <button type="submit" className="sw-logout">
              {__('Log out', 'siteward')}
            </button>
          </form>
        </div>
      </header>
      <main id="sw-main" className="sw-main">
        <h1 ref={heading} tabIndex={-1} className="sw-title">
          {title}
        </h1>
        <div className="sw-notices" aria-live="polite">
          {serverNotice && serverNoticeShown && (
            <Notice status={serverNotice.tone} onRemove={() => setServerNoticeShown(false)} className="sw-connection-notice">
              {serverNotice.text}
            </Notice>
          )}
          {notices.map((n) => (
            <Notice key={n.id} status={n.status} onRemove={() => removeNotice(n.id)} actions={n.actions?.map((a) => ({ label: a.label, onClick: a.onClick, variant: 'secondary' as const }))}>
              {n.text}
            </Notice>
          ))}
        </div>
        {route.screen === 'dashboard' && (
          <>
            <DismissibleNotices />
            <JumpStart />
            <Dashboard />
          </>
        )}
        {route.screen === 'modules' && (
          <>
            {!route.slug && <JumpStart />}
            <ModulesScreen slug={route.slug} />
          </>
        )}
        {route.screen === 'settings' && <SettingsScreen />}
        {route.screen === 'monitor' && <MonitorScreen />}
        {route.screen === 'backups' && <BackupsScreen />}
        {route.screen === 'protect' && <ProtectScreen />}
      </main>
    </>
  );
}

