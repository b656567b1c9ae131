import { describe, expect, it } from 'vitest';
import type { QuestionItem } from '../../../../shared/history/items';
import {
  callEndKey,
  dayStart,
  decidedByKey,
  filterFromQuery,
  isFiltered,
  NO_FILTER,
  outcomeBadge,
  queryFromFilter,
  sameQuery,
} from './history-format';

describe('history filter form', () => {
  it('turns the form into a host query: local days, the "to" day included, text trimmed', () => {
    const q = queryFromFilter({
      server: 'github',
      action: 'decline',
      mode: 'url',
      from: '2026-03-01',
      to: '2026-03-31',
      text: '  deploy ',
    });
    expect(q).toEqual({
      server: 'github',
      action: 'decline',
      mode: 'url',
      since: new Date(2026, 2, 1).toISOString(),
      until: new Date(2026, 3, 1).toISOString(),
      text: 'deploy',
    });
    expect(queryFromFilter(NO_FILTER)).toEqual({});
    expect(dayStart('not a day')).toBeNull();
  });

  it('comes back from a query unchanged (the view keeps its filter across visits)', () => {
    const values = {
      server: 'a',
      action: 'accept' as const,
      mode: 'form' as const,
      from: '2026-01-31',
      to: '2026-02-01',
      text: 'x',
    };
    expect(filterFromQuery(queryFromFilter(values))).toEqual(values);
    expect(isFiltered(NO_FILTER)).toBe(false);
    expect(isFiltered({ ...NO_FILTER, text: 'a' })).toBe(true);
    expect(sameQuery({ server: 'a' }, { server: 'a' })).toBe(true);
    expect(sameQuery({ server: 'a' }, { server: 'a', text: 'b' })).toBe(false);
  });
});

const header = (seq: number) => ({ v: 1, seq, ts: '', prev: '0'.repeat(64), hash: '1'.repeat(64) });

describe('history words', () => {
  const item = (answer?: QuestionItem['answer']): QuestionItem => ({
    kind: 'question',
    seq: 1,
    ts: '2026-01-01T00:00:00.000Z',
    question: {
      kind: 'question',
      ...header(1),
      questionId: 'q',
      server: { name: 's', era: 'modern' },
      call: { method: 'tools/call', name: 't' },
      round: 1,
      key: 'k',
      mode: 'form',
      message: 'm',
    },
    ...(answer ? { answer } : {}),
  });
  it('names outcomes, deciders and call endings', () => {
    expect(outcomeBadge(item())).toEqual({ tone: 'info', key: 'history.outcome.none' });
    expect(
      outcomeBadge(
        item({ kind: 'answer', ...header(2), questionId: 'q', server: 's', action: 'decline', decidedBy: 'human' }),
      ),
    ).toEqual({ tone: 'warning', key: 'history.outcome.decline' });
    expect(
      outcomeBadge({
        kind: 'other',
        seq: 3,
        ts: '',
        entry: { kind: 'fault', ...header(3), fault: 'protocol-error', detail: 'y' },
      }).key,
    ).toBe('history.kind.fault');
    expect(decidedByKey('mute-rule')).toBe('history.decidedBy.mute-rule');
    expect(decidedByKey('martians')).toBe('history.decidedBy.other');
    expect(callEndKey({ outcome: 'complete', isError: true })).toBe('history.callEnd.toolError');
    expect(callEndKey({ outcome: 'round-limit' })).toBe('history.callEnd.round-limit');
  });
});
