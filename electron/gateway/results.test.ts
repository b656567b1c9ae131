import { ProtocolError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { ApprovalUnavailableError, ApprovalWithdrawnError } from '../core/approval/approval-client';
import { HOST_ERROR_CODES, HostError, type HostErrorCode } from '../core/host-error';
import { DECIDED_BY } from '../../shared/history/journal-types';
import { cleanResult, decisionSentence, requestFailure, toolFailure } from './results';

const text = (r: unknown) => (r as { content: Array<{ text: string }> }).content[0]!.text;

describe('cleanResult', () => {
  it('keeps the server result but never multi-round-trip material or reserved _meta', () => {
    const cleaned = cleanResult({
      content: [{ type: 'text', text: 'ok' }],
      structuredContent: { a: 1 },
      isError: false,
      resultType: 'complete',
      requestState: 'x',
      inputRequests: {},
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's' }, 'vendor/key': 1 },
    });
    expect(cleaned).toEqual({
      content: [{ type: 'text', text: 'ok' }],
      structuredContent: { a: 1 },
      isError: false,
      _meta: { 'vendor/key': 1 },
    });
    expect(cleanResult({ content: [], _meta: { 'io.modelcontextprotocol/serverInfo': {} } })).toEqual({ content: [] });
  });
});

describe('what the agent is told when a call does not end with the server result', () => {
  // Messages carrying question material, as the core's errors may: none of it may reach the agent.
  const secret = 'SECRET-FIELD-postal_address';
  // Every code the core has but those whose own message the agent may read
  // (connection, config and task states carry no question material): a new
  // code that forgot its fixed sentence fails here.
  const passedThrough: HostErrorCode[] = [
    'connection',
    'config',
    'task-failed',
    'task-expired',
    'task-timeout',
    'task-limit',
  ];
  const codes = HOST_ERROR_CODES.filter((c) => !passedThrough.includes(c));

  it.each(codes)("%s: one fixed sentence, marked as the host's, quoting nothing of the question", (code) => {
    const r = toolFailure(new HostError(code, `server "s" sent ${secret}`), 's') as Record<string, any>;
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^Countersign: /);
    expect(JSON.stringify(r)).not.toContain(secret);
    expect(r._meta).toEqual({ 'io.countersign/host-generated': true, 'io.countersign/host-error': code });
  });

  it('no app: the clear sentence, with its own marker', () => {
    const r = toolFailure(new ApprovalUnavailableError('the app is not running'), 's') as Record<string, any>;
    expect(text(r)).toBe('Countersign: approval app not running, nothing was done: the app is not running');
    expect(r._meta['io.countersign/host-error']).toBe('approval-app-unavailable');
    const w = toolFailure(new ApprovalWithdrawnError(`refused: ${secret}`), 's') as Record<string, any>;
    expect(JSON.stringify(w)).not.toContain(secret);
    expect(w._meta['io.countersign/host-error']).toBe('approval-withdrawn');
  });

  it("passes the server's own JSON-RPC error through (code and message, never data)", () => {
    const e = toolFailure(new ProtocolError(-32602, 'Unknown tool: x', { secret }), 's');
    expect(e).toBeInstanceOf(ProtocolError);
    expect((e as ProtocolError).code).toBe(-32602);
    expect((e as ProtocolError).message).toBe('Unknown tool: x');
    expect((e as ProtocolError).data).toBeUndefined();
  });

  it('never passes a -32042 (its data is a question): the host says it in its own words', () => {
    const r = toolFailure(
      new ProtocolError(-32042, 'open https://example.com/authorize', { elicitations: [] }),
      's',
    ) as Record<string, any>;
    expect(r.isError).toBe(true);
    expect(JSON.stringify(r)).not.toContain('example.com');
  });

  it('after a human decline or cancel, says so, as a normal result, even if the server then errs', () => {
    const declined = toolFailure(new ProtocolError(-32603, 'boom'), 's', {
      action: 'decline',
      decidedBy: 'human',
    }) as Record<string, any>;
    expect(declined.isError).toBeUndefined();
    expect(text(declined)).toBe(
      'declined by the user, nothing was changed (server "s" then answered with an error: boom)',
    );
    const typed = toolFailure(
      new ProtocolError(-32603, 'boom'),
      's',
      { action: 'decline', decidedBy: 'human' },
      { outputSchema: true },
    ) as Record<string, any>;
    expect(typed.isError).toBe(true);
    const cancelled = toolFailure(new HostError('round-limit', 'x'), 's', {
      action: 'cancel',
      decidedBy: 'human',
    }) as Record<string, any>;
    expect(text(cancelled)).toMatch(
      /^Countersign: cancelled by the user \(dialog dismissed\), nothing was changed\. server "s" kept asking/,
    );
  });

  it('decision sentences are distinct for every decider, and only the person is called the user', () => {
    const sentences = [
      decisionSentence({ action: 'decline', decidedBy: 'human' }, 's'),
      decisionSentence({ action: 'cancel', decidedBy: 'human' }, 's'),
      decisionSentence({ action: 'cancel', decidedBy: 'mute-rule' }, 's'),
      decisionSentence({ action: 'cancel', decidedBy: 'call-cancelled' }, 's'),
    ];
    expect(sentences[0]).toBe('declined by the user, nothing was changed');
    expect(sentences[1]).toBe('cancelled by the user (dialog dismissed), nothing was changed');
    expect(new Set(sentences).size).toBe(4);
    // What the host, a policy or a script decided is never passed off as the person's choice.
    const byOthers = DECIDED_BY.filter((d) => d !== 'human').flatMap((decidedBy) =>
      (['decline', 'cancel'] as const).map((action) => decisionSentence({ action, decidedBy }, 's')),
    );
    for (const sentence of byOthers) expect(sentence).not.toMatch(/by the user/);
    expect(decisionSentence({ action: 'cancel', decidedBy: 'timeout' }, 's')).toMatch(/question time limit/);
    expect(decisionSentence({ action: 'cancel', decidedBy: 'app-closing' }, 's')).toMatch(/app closed/);
    expect(decisionSentence({ action: 'decline', decidedBy: 'policy' }, 's')).toMatch(
      /^declined by Countersign's policy/,
    );
    expect(decisionSentence({ action: 'decline', decidedBy: 'script' }, 's')).toMatch(/^declined by a script/);
  });

  it('prompts and resources: errors (they have no isError result), same rules', () => {
    expect(requestFailure(new ProtocolError(-32602, 'bad state'), 's').message).toBe('bad state');
    const e = requestFailure(new HostError('invalid-schema', secret), 's');
    expect(e.message).toMatch(/^Countersign: server "s" asked a question Countersign cannot show safely/);
    expect(e.message).not.toContain(secret);
    expect(requestFailure(new ProtocolError(-32603, 'x'), 's', { action: 'decline', decidedBy: 'human' }).message).toBe(
      'declined by the user, nothing was changed. Server "s" answered: x',
    );
  });
});

describe('sign-in, as the agent sees it', () => {
  const link = 'https://as.example.com/authorize?client_id=c&state=s3cr3t&code_challenge=x';
  it('"sign-in needed", "declined" or failed: a fixed sentence, never the link, a code or a token', () => {
    const cases: Array<[HostError, RegExp]> = [
      [new HostError('sign-in-needed', `open ${link}`), /sign-in needed/],
      [new HostError('auth', `declined at ${link}`, { reason: 'declined' }), /declined to sign in/],
      [new HostError('auth', `token at-SECRET refused ${link}`, { reason: 'failed' }), /did not complete/],
    ];
    for (const [error, sentence] of cases) {
      const r = toolFailure(error, 's') as Record<string, any>;
      expect(text(r)).toMatch(sentence);
      expect(JSON.stringify(r)).not.toContain('as.example.com');
      expect(JSON.stringify(r)).not.toContain('SECRET');
      expect(r._meta['io.countersign/host-error']).toBe(error.code);
    }
  });
});
