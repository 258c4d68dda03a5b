import { describe, expect, it } from 'vitest';
import { parseHash } from './hooks';

describe('the hash route', () => {
  it('names each screen', () => {
    expect(parseHash('#/dashboard')).toEqual({ screen: 'dashboard' });
    expect(parseHash('#/modules')).toEqual({ screen: 'modules' });
    expect(parseHash('#/settings')).toEqual({ screen: 'settings' });
    expect(parseHash('#/monitor')).toEqual({ screen: 'monitor' });
    expect(parseHash('#/backups')).toEqual({ screen: 'backups' });
  });

  it('opens a module’s panel from its slug, decoded', () => {
    expect(parseHash('#/modules/protect')).toEqual({ screen: 'modules', slug: 'protect' });
    expect(parseHash('#/modules/a%20b')).toEqual({ screen: 'modules', slug: 'a b' });
  });

  it('reads the spellings the older admin page and links use: no slash, extra slashes', () => {
    expect(parseHash('#modules/sso')).toEqual({ screen: 'modules', slug: 'sso' });
    expect(parseHash('#/modules//')).toEqual({ screen: 'modules' });
    expect(parseHash('#//settings/')).toEqual({ screen: 'settings' });
  });

  it('opens the Activity screen, or one event from its number', () => {
    expect(parseHash('#/activity')).toEqual({ screen: 'activity' });
    expect(parseHash('#/activity/12')).toEqual({ screen: 'activity', id: 12 });
    expect(parseHash('#/activity/x')).toEqual({ screen: 'activity' });
  });

  it('falls back to At a Glance for an empty or unknown hash', () => {
    for (const hash of ['', '#', '#/', '#/nowhere', '#/Settings']) expect(parseHash(hash)).toEqual({ screen: 'dashboard' });
  });
});
