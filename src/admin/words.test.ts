import { describe, expect, it } from 'vitest';
import { resetDoneText, turnOnLabel, updatesText } from './words';

describe('the admin page’s own sentences', () => {
  it('says "1 plugin needs updating." where the wire says "1 plugin need updating."', () => {
    expect(updatesText(1)).toBe('1 plugin needs updating.');
    expect(updatesText(3)).toBe('3 plugins need updating.');
    expect(updatesText(0)).toBe('All plugins are up to date.');
  });

  it('names the Jump Start button with a proper plural, never "the other 1 feature"', () => {
    expect(turnOnLabel(1, 3)).toBe('Turn on the remaining feature');
    expect(turnOnLabel(2, 3)).toBe('Turn on the remaining 2 features');
    expect(turnOnLabel(1, 1)).toBe('Turn on this feature');
    expect(turnOnLabel(5, 5)).toBe('Turn on these 5 features');
    expect(turnOnLabel(0, 5)).toBe('Done: all are on');
  });

  it('reports a reset in its own words, not the wire’s "Jetpack options reset."', () => {
    expect(resetDoneText('options')).not.toMatch(/jetpack/i);
    expect(resetDoneText('options')).toMatch(/^All options are reset/);
    expect(resetDoneText('modules')).toMatch(/^Modules are reset/);
  });
});
