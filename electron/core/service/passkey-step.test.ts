// The passkey step through the host API as the desktop app drives it ('system' mode: the host opens links itself,
// through the private launcher): the step is a question of its own, only its page's link opens, the dialog cannot
// accept it, Cancel sends a cancel recorded as the person's, and Settings' register opens the registration page
// the same way. The ceremony itself needs a browser (test/browser/passkey-approvals.test.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEvents, Question } from '../../../shared/host-api/contract';
import { DEFAULT_SETTINGS } from '../../../shared/settings-defaults';
import { fixtureCommand } from '../../../test/fixtures/spawn-fixture';
import { PasskeyStore } from '../passkeys/passkey-store';
import { HostService } from './host-service';
import { JournalHistory } from './journal-history';

let service: HostService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function start() {
  const dataDir = mkdtempSync(join(tmpdir(), 'cs-step-'));
  const store = await PasskeyStore.open(dataDir);
  await store.add({
    name: 'key',
    id: 'credential',
    publicKey: 'cHVibGlj',
    counter: 0,
    created: '2026-12-07T00:00:00Z',
  });
  const opened: string[] = [];
  const modern = fixtureCommand('modern');
  service = await HostService.create({
    dataDir,
    history: await JournalHistory.open(join(dataDir, 'history')),
    openExternal: async (url) => void opened.push(url),
    firstStartServers: { kimai: { command: modern.command, args: modern.args } },
    connectOnStart: false,
    pacingDelayMs: 20,
  });
  service.log = () => undefined;
  await service.invoke('updateSettings', { passkeys: { ...DEFAULT_SETTINGS.passkeys, every: true } });
  return { svc: service, opened };
}

function nextQuestion(svc: HostService, where: (q: Question) => boolean): Promise<Question> {
  return new Promise((resolve) => {
    const off = svc.on('questionAdded', (q) => {
      if (where(q)) {
        off();
        resolve(q);
      }
    });
  });
}

function callEnded(svc: HostService, callId: string): Promise<HostEvents['callUpdated']> {
  return new Promise((resolve) => {
    const off = svc.on('callUpdated', (c) => {
      if (c.callId === callId && c.state !== 'running') {
        off();
        resolve(c);
      }
    });
  });
}

describe('the passkey step in the desktop app', () => {
  it('opens only its own page through the system opener, refuses an accept, and Cancel sends a cancel', async () => {
    const { svc, opened } = await start();
    const asked = nextQuestion(svc, (q) => !q.origin.passkeyStep);
    const { callId } = await svc.invoke('callTool', { server: 'kimai', tool: 'confirm_delete', args: { entryId: 3 } });
    const ended = callEnded(svc, callId);
    const question = await asked;
    const stepShown = nextQuestion(svc, (q) => q.origin.passkeyStep?.questionId === question.id);
    await svc.invoke('answerQuestion', { questionId: question.id, answer: { action: 'accept', content: {} } });
    const step = await stepShown;
    expect(step.mode).toBe('url');
    expect(step.origin.passkeyStep?.reason).toContain('every accept');
    const href = step.mode === 'url' ? step.url.href : '';
    expect(href).toMatch(/^http:\/\/localhost:\d+\/ceremony\/[A-Za-z0-9_-]{43}$/);
    // The dialog cannot confirm: only the page can.
    await expect(svc.invoke('answerQuestion', { questionId: step.id, answer: { action: 'accept' } })).rejects.toThrow(
      'a passkey step is confirmed only on its page',
    );
    expect(await svc.invoke('openQuestionUrl', { questionId: step.id })).toEqual({ opened: true });
    expect(opened).toEqual([href]);
    // The page serves its own host only (never 127.0.0.1).
    const res = await fetch(href.replace('localhost', '127.0.0.1'));
    expect(res.status).toBe(421);
    await svc.invoke('answerQuestion', { questionId: step.id, answer: { action: 'cancel' } });
    const call = await ended;
    expect(JSON.stringify(call.result)).toContain('cancelled, nothing was deleted');
    const history = await svc.invoke('queryHistory', {});
    const item = history.entries.find((e) => e.kind === 'question' && e.question.questionId === question.id);
    const answer = item?.kind === 'question' ? item.answer : undefined;
    expect(answer).toMatchObject({ action: 'cancel', decidedBy: 'human', passkey: { status: 'cancelled' } });
    // After the step, its page is gone.
    expect((await fetch(href)).status).toBe(404);
  });

  it('Settings → register opens the registration page through the system opener', async () => {
    const { svc, opened } = await start();
    expect(await svc.invoke('registerPasskey', { name: 'laptop' })).toEqual({ opened: true });
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatch(/^http:\/\/localhost:\d+\/ceremony\//);
    expect(await (await fetch(opened[0]!)).text()).toContain('<main id="ceremony"');
    expect(await svc.invoke('listPasskeys', {})).toEqual([
      { id: 'credential', name: 'key', created: '2026-12-07T00:00:00Z' },
    ]);
    const revoked = await svc.invoke('revokePasskey', { id: 'credential' });
    expect(revoked[0]?.revoked).toMatch(/^\d{4}-/);
  });
});
