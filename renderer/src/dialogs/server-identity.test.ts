import { describe, expect, it } from 'vitest';
import {
  assignColours,
  assignMonograms,
  colourOf,
  hashName,
  monogram,
  monogramOf,
  PALETTE_SIZE,
} from './server-identity';

describe('server colours', () => {
  it('are stable: the same name always gets the same slot for the same set', () => {
    const set = ['github', 'calendar', 'files'];
    expect(colourOf('github', set)).toBe(colourOf('github', [...set].reverse()));
    expect(hashName('github')).toBe(hashName('github'));
  });

  it('differ for every known server while the palette lasts', () => {
    const names = Array.from({ length: PALETTE_SIZE }, (_, i) => `server-${i}`);
    const slots = assignColours(names);
    expect(new Set(slots.values()).size).toBe(PALETTE_SIZE);
  });

  it('move a colliding name to a free slot, not the other way round by arrival', () => {
    // Find two names that hash to the same slot.
    const bySlot = new Map<number, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; !pair; i++) {
      const name = `s${i}`;
      const slot = hashName(name) % PALETTE_SIZE;
      const other = bySlot.get(slot);
      if (other) pair = [other, name];
      else bySlot.set(slot, name);
    }
    const [a, b] = pair;
    expect(colourOf(a, [a, b])).not.toBe(colourOf(b, [a, b]));
    expect(colourOf(a, [b, a])).toBe(colourOf(a, [a, b]));
  });

  it('stay in the palette', () => {
    for (const name of ['a', 'weather', 'ö-server', '']) {
      const slot = colourOf(name, []);
      expect(slot).toBeGreaterThanOrEqual(0);
      expect(slot).toBeLessThan(PALETTE_SIZE);
    }
  });
});

describe('monogram', () => {
  it('uses the initials of two words, or the first two letters', () => {
    expect(monogram('github-mcp')).toBe('GM');
    expect(monogram('my_calendar')).toBe('MC');
    expect(monogram('fileSystem')).toBe('FS');
    expect(monogram('weather')).toBe('We');
    expect(monogram('Ödland')).toBe('Öd');
    expect(monogram('x')).toBe('X');
    expect(monogram('---')).toBe('?');
  });
});

describe('monograms among the configured servers', () => {
  it('are distinct where two names share one ("pay-east" and "pay-eu" are not both "PE")', () => {
    const known = ['pay-east', 'pay-eu', 'github'];
    const m = assignMonograms(known);
    expect(m.get('github')).toBe('Gi');
    expect(m.get('pay-east')).not.toBe(m.get('pay-eu'));
    expect(m.get('pay-east')).toBe('PA');
    expect(m.get('pay-eu')).toBe('PU');
    expect(monogramOf('pay-eu', known)).toBe('PU');
    expect(monogramOf('pay-eu', ['pay-eu'])).toBe('PE'); // alone, it keeps its own
  });

  it('depend only on the set of names, not their order', () => {
    expect(assignMonograms(['pay-eu', 'pay-east'])).toEqual(assignMonograms(['pay-east', 'pay-eu']));
  });
});
