import { describe, expect, it } from 'vitest';
import { loadSettings, settingsByKey } from './config/config.js';
import { defineSettings, integer } from './config/setting.js';
import { builtInSettings, loadConfig } from './settings.js';

const load = (overrides: Record<string, unknown> = {}) => loadConfig({ env: {}, cwd: '/tmp', configFile: null, overrides });

describe('the settings declarations', () => {
  const all = [...settingsByKey(builtInSettings)];

  it.each(all.filter(([, s]) => s.schema.default !== undefined).map(([key, s]) => [key, s.schema.default]))(
    'give %s the default they document (%j)',
    (key, documented) => {
      expect(load({ [key]: documented })).toEqual(load());
    },
  );

  it('let features declare their own settings, read with the core ones', () => {
    const owners = builtInSettings.map((g) => g.owner);
    expect(owners[0]).toBe('core');
    expect(owners).toEqual(expect.arrayContaining(['protect', 'monitor', 'backups', 'connection', 'stats', 'updates']));
    expect(load()).toMatchObject({ protectMaxFailures: 5, monitorInterval: 60, npmRegistry: 'https://registry.npmjs.org' });
  });

  it('refuse a key or an environment variable declared twice', () => {
    const twice = defineSettings({ port: integer({ env: 'SITEWARD_OTHER_PORT', default: 1, min: 0, max: 2, doc: 'x' }) });
    expect(() => loadSettings([...builtInSettings, { owner: 'hello', group: twice }], { env: {}, configFile: null })).toThrow(
      'setting port (SITEWARD_OTHER_PORT) of hello is declared twice',
    );
  });
});
