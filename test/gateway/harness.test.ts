// The leak check the end-to-end tests rely on must itself catch leaks.
import { describe, expect, it } from 'vitest';
import { leaks } from './harness';

const result = (text: string) => ({ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text }] } });

describe('leaks()', () => {
  const server = new Set(['booked for Ada after 2 rounds']);

  it('allows what the server itself wrote into a final result, and nothing else', () => {
    expect(leaks([result('booked for Ada after 2 rounds')], ['Ada'], server)).toEqual([]);
    expect(leaks([result('booked for Ada, said the gateway')], ['Ada'], server)).toHaveLength(1);
  });

  it('catches question text in any message, at any depth', () => {
    const progress = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1, message: 'asking: What name should the booking use?' },
    };
    expect(leaks([progress], ['What name should the booking use?'], server)).toHaveLength(1);
    expect(
      leaks(
        [{ jsonrpc: '2.0', id: 1, result: { _meta: { x: ['Book the time for Ada?'] } } }],
        ['Book the time for Ada?'],
        server,
      ),
    ).toHaveLength(1);
  });

  it('catches the multi-round-trip vocabulary and any request to the agent', () => {
    expect(
      leaks(
        [{ jsonrpc: '2.0', id: 1, result: { resultType: 'input_required', inputRequests: {} } }],
        [],
        server,
      ).join(),
    ).toMatch(/inputRequests.*input_required|input_required/);
    expect(leaks([{ jsonrpc: '2.0', id: 9, method: 'elicitation/create', params: {} }], [], server).join()).toContain(
      'the gateway sent the agent a request',
    );
    expect(leaks([{ jsonrpc: '2.0', id: 9, method: 'ping' }], [], server)).toEqual([
      'the gateway sent the agent a request: ping',
    ]);
  });
});
