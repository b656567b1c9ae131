import { describe, expect, it } from 'vitest';
import {
  AttentionController,
  attentionLanguage,
  badgeText,
  needsAttention,
  notificationFor,
  trayTooltip,
  type AttentionPort,
  type WindowState,
} from './attention';

const origin = {
  server: 'Kimai',
  era: 'modern' as const,
  method: 'tools/call' as const,
  name: 'book',
  round: 1,
  key: 'k',
};
const form = { mode: 'form' as const, origin };
const link = { mode: 'url' as const, origin };
const focused: WindowState = { exists: true, visible: true, minimized: false, focused: true };

function fakePort(state: WindowState) {
  const calls: string[] = [];
  const clicks: Array<() => void> = [];
  const port: AttentionPort & { state: WindowState } = {
    state,
    setBadge: (count, text) => calls.push(`badge ${count} "${text}"`),
    setTrayTooltip: (text) => calls.push(`tooltip ${text}`),
    notify: (m, onClick) => {
      calls.push(`notify ${m.title} | ${m.body}`);
      clicks.push(onClick);
    },
    flash: (on) => calls.push(`flash ${on}`),
    windowState: () => port.state,
    bringToFront: () => calls.push('front'),
  };
  return { port, calls, clicks };
}

describe('attention decisions', () => {
  it.each([
    [{ exists: false, visible: false, minimized: false, focused: false }, true],
    [{ exists: true, visible: false, minimized: false, focused: false }, true],
    [{ exists: true, visible: true, minimized: true, focused: false }, true],
    [{ exists: true, visible: true, minimized: false, focused: false }, true],
    [focused, false],
  ])('needsAttention(%o) = %s', (state, expected) => {
    expect(needsAttention(state)).toBe(expected);
  });

  it('badges the number waiting, capped at 9+', () => {
    expect([0, -1, NaN, 1, 9, 10, 250].map(badgeText)).toEqual(['', '', '', '1', '9', '9+', '9+']);
  });

  it('words the tooltip in both languages', () => {
    expect(trayTooltip(0, 'en')).toBe('Countersign');
    expect(trayTooltip(1, 'en')).toBe('Countersign – 1 question waiting');
    expect(trayTooltip(3, 'en')).toBe('Countersign – 3 questions waiting');
    expect(trayTooltip(1, 'de')).toBe('Countersign – 1 Frage wartet');
    expect(trayTooltip(2, 'de')).toBe('Countersign – 2 Fragen warten');
  });

  it("names the server and kind of question but never the server's message", () => {
    const q = { ...form, message: 'Click https://evil.example to claim your prize' };
    const n = notificationFor(q, 1, 'en');
    expect(n).toEqual({ title: 'Countersign: a question is waiting', body: '"Kimai" asks for your input.' });
    expect(JSON.stringify(n)).not.toContain('evil');
    expect(notificationFor(link, 3, 'en').body).toBe('"Kimai" asks you to open a link. 3 questions are waiting.');
    expect(notificationFor(link, 1, 'de')).toEqual({
      title: 'Countersign: eine Frage wartet',
      body: '„Kimai“ bittet Sie, einen Link zu öffnen.',
    });
  });

  it('keeps server names to one short printable line', () => {
    const q = { mode: 'form' as const, origin: { ...origin, server: `evil\n\u202eserver${'x'.repeat(100)}` } };
    const body = notificationFor(q, 1, 'en').body;
    expect(body).not.toMatch(/[\n\u202e]/);
    expect(body.length).toBeLessThan(100);
  });

  it('picks the language from the setting, else the system locale', () => {
    expect(attentionLanguage('de', 'en-US')).toBe('de');
    expect(attentionLanguage('en', 'de-DE')).toBe('en');
    expect(attentionLanguage('system', 'de-AT')).toBe('de');
    expect(attentionLanguage('system', 'de')).toBe('de');
    expect(attentionLanguage('system', 'fr-FR')).toBe('en');
    expect(attentionLanguage(undefined, 'en')).toBe('en');
  });
});

describe('AttentionController', () => {
  it('notifies, flashes and badges when a question arrives while the window is hidden', () => {
    const { port, calls, clicks } = fakePort({ exists: true, visible: false, minimized: false, focused: false });
    new AttentionController(port, () => 'en').questionAdded(form, 2);
    expect(calls).toEqual([
      'badge 2 "2"',
      'tooltip Countersign – 2 questions waiting',
      'notify Countersign: a question is waiting | "Kimai" asks for your input. 2 questions are waiting.',
      'flash true',
    ]);
    clicks[0]!();
    expect(calls.at(-1)).toBe('front');
  });

  it('only badges when the human is already looking', () => {
    const { port, calls } = fakePort(focused);
    new AttentionController(port, () => 'en').questionAdded(form, 1);
    expect(calls).toEqual(['badge 1 "1"', 'tooltip Countersign – 1 question waiting']);
  });

  it('notifies for a question arriving while the window is in the background', () => {
    const { port, calls } = fakePort({ ...focused, focused: false });
    new AttentionController(port, () => 'de').questionAdded(link, 1);
    expect(calls.some((c) => c.startsWith('notify Countersign: eine Frage wartet'))).toBe(true);
  });

  it('clears badge and flashing when the queue empties, and stops flashing on focus', () => {
    const { port, calls } = fakePort({ ...focused, visible: false });
    const attention = new AttentionController(port, () => 'en');
    attention.questionAdded(form, 1);
    calls.length = 0;
    attention.questionRemoved(0);
    expect(calls).toEqual(['badge 0 ""', 'tooltip Countersign', 'flash false']);
    calls.length = 0;
    attention.windowFocused();
    expect(calls).toEqual(['flash false']);
  });

  it('re-applies the badge in a new language', () => {
    const { port, calls } = fakePort(focused);
    let lang: 'en' | 'de' = 'en';
    const attention = new AttentionController(port, () => lang);
    attention.questionRemoved(4);
    lang = 'de';
    calls.length = 0;
    attention.refresh();
    expect(calls).toEqual(['badge 4 "4"', 'tooltip Countersign – 4 Fragen warten']);
  });
});
