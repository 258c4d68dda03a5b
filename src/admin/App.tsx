/** The page: header with navigation, notices, Jump Start, and the screen of the hash route. */
import { Notice } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';
import { useEffect, useRef, type RefObject } from 'react';
import { ActivityScreen } from './activity/ActivityScreen';
import { DismissibleNotices, JumpStart } from './Banners';
import { BackupsScreen } from './Backups';
import { Dashboard } from './Dashboard';
import { useHashRoute, type Route } from './hooks';
import { ModulesScreen } from './Modules';
import { MonitorScreen } from './monitor/MonitorScreen';
import { ProtectScreen } from './Protect';
import { SettingsScreen } from './Settings';
import { TwoFactorScreen } from './TwoFactor';
import { useConnection, useModules, useNotices, useNotify } from './site';

function titleOf(route: Route, moduleName?: string): string {
  if (route.screen === 'modules') return route.slug ? (moduleName ?? __('Module', 'siteward')) : __('Modules', 'siteward');
  if (route.screen === 'settings') return __('Settings', 'siteward');
  if (route.screen === 'monitor') return __('Monitor', 'siteward');
  if (route.screen === 'backups') return __('Backups', 'siteward');
  if (route.screen === 'protect') return __('Protect', 'siteward');
  if (route.screen === 'two-factor') return __('Two-factor', 'siteward');
  if (route.screen === 'activity') return __('Activity', 'siteward');
  return __('At a Glance', 'siteward');
}

/** Labels are read at render time: a translation loaded after this module still applies. */
const TABS: { screen: Route['screen']; href: string; label: () => string; adminOnly?: boolean }[] = [
  { screen: 'dashboard', href: '#/dashboard', label: () => __('At a Glance', 'siteward') },
  { screen: 'modules', href: '#/modules', label: () => __('Modules', 'siteward') },
  { screen: 'monitor', href: '#/monitor', label: () => __('Monitor', 'siteward') },
  { screen: 'protect', href: '#/protect', label: () => __('Protect', 'siteward') },
  { screen: 'settings', href: '#/settings', label: () => __('Settings', 'siteward') },
  { screen: 'backups', href: '#/backups', label: () => __('Backups', 'siteward') },
  { screen: 'two-factor', href: '#/two-factor', label: () => __('Two-factor', 'siteward') },
  // The audit log is for administrators (its REST answers only them).
  { screen: 'activity', href: '#/activity', label: () => __('Activity', 'siteward'), adminOnly: true },
];

/** The screen's heading; the window title and the focus follow navigation (not on the first screen: focus stays where the browser put it). */
function ScreenHeading({ route, heading }: { route: Route; heading: RefObject<HTMLHeadingElement | null> }) {
  const { modules } = useModules();
  const first = useRef(true);
  const title = titleOf(route, route.screen === 'modules' && route.slug ? modules[route.slug]?.name : undefined);
  const routeKey =
    route.screen === 'modules' ? `modules/${route.slug ?? ''}` : route.screen === 'activity' ? `activity/${route.id ?? ''}` : route.screen;
  useEffect(() => {
    // translators: %s: the screen's title.
    document.title = sprintf(__('%s ‹ Siteward', 'siteward'), title);
    if (first.current) {
      first.current = false;
      return;
    }
    heading.current?.focus();
    window.scrollTo(0, 0);
  }, [routeKey, title, heading]);
  return (
    <h1 ref={heading} tabIndex={-1} className="sw-title">
      {title}
    </h1>
  );
}

/** The page's notices: the only part that re-renders when one comes or goes. */
function PageNotices() {
  const notices = useNotices();
  const { removeNotice } = useNotify();
  return (
    <div className="sw-notices" aria-live="polite">
      {notices.map((n) => (
        <Notice
          key={n.id}
          status={n.status}
          onRemove={() => removeNotice(n.id)}
          className={n.topic ? `sw-${n.topic}-notice` : undefined}
          actions={n.actions?.map((a) => ({ label: a.label, onClick: a.onClick, variant: 'secondary' as const }))}
        >
          {n.text}
        </Notice>
      ))}
    </div>
  );
}

function UserMenu() {
  const { user } = useConnection();
  return (
    <form method="post" action="/logout" className="sw-user">
      <span className="sw-user-name">{user.currentUser.username}</span>
      <button type="submit" className="sw-logout">
        {__('Log out', 'siteward')}
      </button>
    </form>
  );
}

/** The page; it reads only the route, so that what the screens read re-renders only them. */
/** The sections' links; the Activity tab only for administrators. */
function Navigation({ route }: { route: Route }) {
  const { user } = useConnection();
  const isAdmin = user.currentUser.permissions.manage_options !== false;
  return (
    <nav aria-label={__('Admin sections', 'siteward')} className="sw-nav">
      {TABS.filter((tab) => isAdmin || !tab.adminOnly).map((tab) => (
        <a key={tab.screen} href={tab.href} className="sw-nav-link" aria-current={route.screen === tab.screen ? 'page' : undefined}>
          {tab.label()}
        </a>
      ))}
    </nav>
  );
}

export function App() {
  const route = useHashRoute();
  const heading = useRef<HTMLHeadingElement>(null);

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
          <Navigation route={route} />
          <UserMenu />
        </div>
      </header>
      <main id="sw-main" className="sw-main">
        <ScreenHeading route={route} heading={heading} />
        <PageNotices />
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
        {route.screen === 'two-factor' && <TwoFactorScreen />}
        {route.screen === 'activity' && <ActivityScreen id={route.id} />}
      </main>
    </>
  );
}
