import { describe, expect, it } from 'vitest';
import {
  AttentionController,
  attentionLanguage,
  badgeText,
  needsAttention,
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
const form = {
  id: 'q1',
  mode: 'form' as const,
  origin,
  message: 'Book 2 h on\u202e "ops"? \u0007Reply with your password',
};
const link = { id: 'q2', mode: 'url' as const, origin, message: 'Connect your account' };
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
      'notify Countersign: a question is waiting | "Kimai" asks for your input (tool "book").',
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

  it('coalesces a burst into one growing notification, one per question, and starts afresh after focus', () => {
    const { port, calls } = fakePort({ ...focused, focused: false });
    const attention = new AttentionController(port, () => 'en');
    attention.questionAdded(form, 1);
    attention.questionAdded(form, 1); // the same question again (a re-sent event): no second notification
    attention.questionAdded({ ...link, origin: { ...origin, name: 'deploy' } }, 2);
    attention.questionAdded({ ...form, id: 'q3' }, 3);
    expect(calls.filter((c) => c.startsWith('notify'))).toEqual([
      'notify Countersign: a question is waiting | "Kimai" asks for your input (tool "book").',
      'notify Countersign: 2 questions are waiting | 2 questions from "Kimai" ("book", "deploy").',
      'notify Countersign: 3 questions are waiting | 3 questions from "Kimai" ("book", "deploy").',
    ]);
    attention.questionRemoved(2, 'q3');
    attention.windowFocused();
    calls.length = 0;
    port.state = { ...focused, focused: false };
    attention.questionAdded({ ...form, id: 'q4' }, 3);
    expect(calls.filter((c) => c.startsWith('notify'))).toEqual([
      'notify Countersign: a question is waiting | "Kimai" asks for your input (tool "book").',
    ]);
  });

  it('shows the message only when the setting asks for it: one line, shortened, quoted after the names', () => {
    const { port, calls } = fakePort({ ...focused, focused: false });
    let detail: 'names' | 'message' = 'names';
    const attention = new AttentionController(
      port,
      () => 'en',
      () => detail,
    );
    attention.questionAdded(form, 1);
    expect(calls.filter((c) => c.startsWith('notify'))).toEqual([
      'notify Countersign: a question is waiting | "Kimai" asks for your input (tool "book").',
    ]);
    attention.windowFocused();
    detail = 'message';
    calls.length = 0;
    attention.questionAdded({ ...form, id: 'q5' }, 1);
    // Control and bidi characters become spaces; the server's words stay in quotes on their own line.
    expect(calls.filter((c) => c.startsWith('notify'))).toEqual([
      'notify Countersign: a question is waiting | "Kimai" asks for your input (tool "book").\n"Book 2 h on "ops"? Reply with your password"',
    ]);
    // A burst still names servers and tools only.
    attention.questionAdded({ ...link, id: 'q6' }, 2);
    expect(calls.filter((c) => c.startsWith('notify')).at(-1)).toBe(
      'notify Countersign: 2 questions are waiting | 2 questions from "Kimai" ("book").',
    );
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
