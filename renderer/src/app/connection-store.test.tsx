import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { QuestionOrigin } from '../../../shared/elicitation/types';
import type { ConnectionState } from '../api/ws-host-api';
import { createInMemoryHost } from '../api/in-memory-host';
import { I18nProvider } from '../i18n/i18n-context';
import { QuestionQueue } from '../state/question-queue';
import ConnectionBanner from './ConnectionBanner';
import { followConnection } from './connection-store';

function fakeConnection() {
  let listener: ((s: ConnectionState) => void) | undefined;
  return {
    api: {
      connection: 'open' as ConnectionState,
      onConnection: (l: (s: ConnectionState) => void) => ((listener = l), () => undefined),
    },
    emit: (s: ConnectionState) => listener!(s),
  };
}

describe('connection banner and resync', () => {
  it('re-reads the host only after a connection was lost and came back', () => {
    const c = fakeConnection();
    let resyncs = 0;
    const store = followConnection(c.api, () => void resyncs++);
    expect(store.getState()).toBe('open');
    c.emit('open');
    expect(resyncs).toBe(0);
    c.emit('reconnecting');
    expect(store.getState()).toBe('reconnecting');
    c.emit('open');
    expect(resyncs).toBe(1);
  });

  it('says when the connection is being re-made and when it is gone', () => {
    const { rerender } = render(
      <I18nProvider language="en">
        <ConnectionBanner state="reconnecting" />
      </I18nProvider>,
    );
    expect(screen.getByRole('status').textContent).toContain('reconnecting');
    rerender(
      <I18nProvider language="de">
        <ConnectionBanner state="failed" />
      </I18nProvider>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Verbindung zu Countersign ist weg');
    rerender(
      <I18nProvider language="en">
        <ConnectionBanner state="open" />
      </I18nProvider>,
    );
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('after a resync, questions settled meanwhile leave with a note and new ones join', async () => {
    const host = createInMemoryHost();
    const origin: QuestionOrigin = {
      server: 'kimai',
      era: 'modern',
      method: 'tools/call',
      name: 'x',
      round: 1,
      key: 'k',
    };
    const q = (id: string) => ({
      id,
      mode: 'form' as const,
      origin,
      message: id,
      requestedSchema: { type: 'object' as const, properties: {} },
    });
    host.push(q('a'));
    host.push(q('b'));
    const queue = new QuestionQueue(host.api);
    await queue.start();
    expect(queue.getState().questions.map((x) => x.id)).toEqual(['a', 'b']);
    // While disconnected: "a" was settled elsewhere and "c" arrived; no events reached us.
    queue.stop();
    host.withdraw('a', 'answered');
    host.push(q('c'));
    await queue.resync();
    expect(queue.getState().questions.map((x) => x.id)).toEqual(['b', 'c']);
    expect(queue.getState().notes.map((n) => n.questionId)).toEqual(['a']);
  });
});
