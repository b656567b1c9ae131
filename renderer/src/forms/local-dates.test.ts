// German dates typed as text: what is taken, what is refused, and that a value
// shown and read back is the same value.
import { describe, expect, it } from 'vitest';
import { parseDate, parseDateTime, showDate, showDateTime, typesDates } from './local-dates';

describe('typed dates (German)', () => {
  it('only German types them; English keeps the browser pickers', () => {
    expect([typesDates('de'), typesDates('en')]).toEqual([true, false]);
  });

  it('reads TT.MM.JJJJ, one-digit day and month too, as YYYY-MM-DD', () => {
    expect(parseDate('24.12.2026')).toBe('2026-12-24');
    expect(parseDate(' 6.1.2027 ')).toBe('2027-01-06');
    expect(parseDate('29.02.2028')).toBe('2028-02-29');
  });

  it('refuses what is no calendar day or not in that order', () => {
    for (const bad of [
      '31.02.2026',
      '29.02.2027',
      '00.01.2026',
      '12.13.2026',
      '2026-12-24',
      '12/24/2026',
      '24.12.26',
      '',
    ])
      expect(parseDate(bad), bad).toBeNull();
  });

  it('shows YYYY-MM-DD as TT.MM.JJJJ, and anything else as it is', () => {
    expect(showDate('2026-07-28')).toBe('28.07.2026');
    expect(showDate('soon')).toBe('soon');
    expect(parseDate(showDate('2026-07-28'))).toBe('2026-07-28');
  });

  it('reads TT.MM.JJJJ HH:MM as local time and sends UTC with Z; shows it back the same', () => {
    const sent = parseDateTime('28.07.2026 09:30');
    expect(sent).toBe(new Date(2026, 6, 28, 9, 30).toJSON());
    expect(sent).toMatch(/Z$/);
    expect(showDateTime(sent!)).toBe('28.07.2026 09:30');
    expect(parseDateTime('1.2.2027, 7:05')).toBe(new Date(2027, 1, 1, 7, 5).toJSON());
  });

  it('refuses a moment that is not one', () => {
    for (const bad of ['28.07.2026', '28.07.2026 24:00', '28.07.2026 09:60', '31.04.2026 10:00', '2026-07-28T09:30'])
      expect(parseDateTime(bad), bad).toBeNull();
    expect(showDateTime('not a date')).toBe('not a date');
  });

  it('keeps years below 100 as written (no 19xx)', () => {
    expect(parseDate('01.01.0050')).toBe('0050-01-01');
    expect(new Date(parseDateTime('01.01.0050 12:00')!).getFullYear()).toBe(50);
  });
});
