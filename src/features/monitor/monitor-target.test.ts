import { describe, expect, it } from 'vitest';
import { monitorServiceGap } from './monitor-target.js';

describe('Monitor has a URL worth checking', () => {
  it('when the home URL is an address visitors can use', () => {
    expect(monitorServiceGap(null, 'https://example.org')).toBeNull();
    expect(monitorServiceGap(null, 'http://203.0.113.7:8080')).toBeNull();
  });

  it('not when the home URL only reaches this machine, and says what to set', () => {
    for (const home of ['http://localhost:8080', 'http://127.0.0.1:3000', 'http://[::1]:3000', 'http://0.0.0.0:3000']) {
      expect(monitorServiceGap(null, home)).toEqual({
        message: `Monitor needs a URL to check, and the home URL (${home}) only reaches this machine. Set SITEWARD_MONITOR_URL to the URL to check (for a local trial, the home URL itself: SITEWARD_MONITOR_URL=${home}/), or SITEWARD_HOME_URL to the address visitors use, then restart Siteward.`,
        settings: ['SITEWARD_MONITOR_URL', 'SITEWARD_HOME_URL'],
      });
    }
  });

  it('whenever SITEWARD_MONITOR_URL is set, even to a loopback address (the operator chose it)', () => {
    expect(monitorServiceGap('http://127.0.0.1:9000/', 'http://localhost:8080')).toBeNull();
  });
});
