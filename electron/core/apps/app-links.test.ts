// An app's ui/open-link through the host's link consent: the real QueuePrompter
// (the queue both front ends show) with a stand-in host that serves one app.
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/app-bridge';
import { describe, expect, it } from 'vitest';
import type { HostEvents } from '../../../shared/host-api/contract';
import type { AppBody } from '../../../shared/history/journal-types';
import type { CallRequest, CallResult } from '../host';
import { Emitter } from '../service/emitter';
import { QueuePrompter, type LinkOpening } from '../service/queue-prompter';
import { AppSessions } from './app-sessions';

const RESOURCE = 'ui://links/app.html';

function setUp(linkOpening: LinkOpening = 'tab') {
  const events = new Emitter<HostEvents>();
  const systemOpened: string[] = [];
  const prompter = new QueuePrompter(events, async (url) => void systemOpened.push(url), linkOpening);
  const recorded: AppBody[] = [];
  const host = {
    listTools: async () => [
      { name: 'show', inputSchema: { type: 'object' as const }, _meta: { ui: { resourceUri: RESOURCE } } },
    ],
    call: async (request: CallRequest): Promise<CallResult> => ({
      call: {
        callId: 'read-1',
        server: request.server,
        era: 'modern',
        protocolVersion: '2026-07-28',
        method: 'resources/read',
        name: RESOURCE,
      },
      result: { contents: [{ uri: RESOURCE, mimeType: RESOURCE_MIME_TYPE, text: '<p>app</p>' }] },
      rounds: 1,
    }),
  };
  const apps = new AppSessions(host, { appEvent: async (e) => void recorded.push(e) }, prompter);
  apps.origin = { documentBase: 'http://127.0.0.1:1/app/', frameAncestor: 'http://127.0.0.1:2' };
  return { apps, prompter, recorded, systemOpened };
}

async function openedApp(s: ReturnType<typeof setUp>): Promise<string> {
  const view = await s.apps.openFor('links', 'show', 'call-1');
  return view!.appId;
}

/** Waits until the queue holds a question (openLink asks after its first await-free checks). */
async function waitingQuestion(prompter: QueuePrompter) {
  for (let i = 0; i < 50 && prompter.list().length === 0; i++) await new Promise((r) => setTimeout(r, 1));
  return prompter.list()[0];
}

const linkEvents = (recorded: AppBody[]) =>
  recorded.filter((e) => e.event.startsWith('link-')).map((e) => [e.event, e.detail]);

describe('an app’s links go through the host’s link consent', () => {
  it('asks the person as a URL question naming the app; only the consent opens it, and ends the question', async () => {
    const s = setUp();
    const appId = await openedApp(s);
    const outcome = s.apps.openLink(appId, 'https://example.com/docs?x=1');
    const question = await waitingQuestion(s.prompter);
    expect(question).toMatchObject({
      mode: 'url',
      url: { href: 'https://example.com/docs?x=1', blocked: false },
      origin: {
        server: 'links',
        method: 'tools/call',
        name: 'show',
        agent: 'MCP App of show',
        app: { resourceUri: RESOURCE },
      },
    });
    // No answer can say yes for it: only opening it does.
    expect(() => s.prompter.answer(question!.id, { action: 'accept' })).toThrow(/only by opening it/);
    expect(linkEvents(s.recorded)).toEqual([]);
    const consent = await s.prompter.openUrl(question!.id);
    expect(consent).toEqual({ opened: true, openHere: 'https://example.com/docs?x=1' });
    await expect(outcome).resolves.toEqual({ opened: true });
    expect(s.prompter.list()).toEqual([]);
    expect(linkEvents(s.recorded)).toEqual([['link-opened', 'https://example.com/docs?x=1']]);
  });

  it('in the desktop’s system mode the consent opens it through the host’s opener', async () => {
    const s = setUp('system');
    const appId = await openedApp(s);
    const outcome = s.apps.openLink(appId, 'https://example.com/a');
    const question = await waitingQuestion(s.prompter);
    expect(s.systemOpened).toEqual([]);
    await s.prompter.openUrl(question!.id);
    await expect(outcome).resolves.toEqual({ opened: true });
    expect(s.systemOpened).toEqual(['https://example.com/a']);
  });

  it('a decline or cancel opens nothing and is on record', async () => {
    const s = setUp('system');
    const appId = await openedApp(s);
    for (const action of ['decline', 'cancel'] as const) {
      const outcome = s.apps.openLink(appId, `https://example.com/${action}`);
      const question = await waitingQuestion(s.prompter);
      s.prompter.answer(question!.id, { action });
      await expect(outcome).resolves.toMatchObject({ opened: false });
    }
    expect(s.systemOpened).toEqual([]);
    expect(linkEvents(s.recorded)).toEqual([
      ['link-declined', 'https://example.com/decline (declined)'],
      ['link-declined', 'https://example.com/cancel (cancelled)'],
    ]);
  });

  it('refuses a link that can never open without asking, and a second link while one waits', async () => {
    const s = setUp();
    const appId = await openedApp(s);
    await expect(s.apps.openLink(appId, 'javascript:alert(1)')).resolves.toMatchObject({ opened: false });
    await expect(s.apps.openLink(appId, 'not a url')).resolves.toMatchObject({ opened: false });
    expect(s.prompter.list()).toEqual([]);
    const first = s.apps.openLink(appId, 'https://example.com/first');
    await waitingQuestion(s.prompter);
    await expect(s.apps.openLink(appId, 'https://example.com/second')).resolves.toEqual({
      opened: false,
      reason: 'another link of this app is waiting for the person',
    });
    expect(s.prompter.list()).toHaveLength(1);
    expect(linkEvents(s.recorded).map(([event]) => event)).toEqual(['link-refused', 'link-refused', 'link-refused']);
    expect(linkEvents(s.recorded)[0]![1]).toMatch(/^javascript:alert\(1\) \(/);
    s.apps.close(appId);
    await expect(first).resolves.toEqual({ opened: false, reason: 'the app was closed' });
  });

  it('flags a look-alike link in the question the dialog shows', async () => {
    const s = setUp();
    const appId = await openedApp(s);
    // Cyrillic "а" in place of the Latin one.
    void s.apps.openLink(appId, 'https://ex\u0430mple.com/login');
    const question = await waitingQuestion(s.prompter);
    expect(question?.mode === 'url' && question.url.lookalike).toBe(true);
    s.apps.closeAll();
  });

  it('closing the app withdraws its waiting link question, and nothing opens', async () => {
    const s = setUp('system');
    const appId = await openedApp(s);
    const outcome = s.apps.openLink(appId, 'https://example.com/later');
    const question = await waitingQuestion(s.prompter);
    s.apps.close(appId);
    await expect(outcome).resolves.toEqual({ opened: false, reason: 'the app was closed' });
    expect(s.prompter.list()).toEqual([]);
    await expect(s.prompter.openUrl(question!.id)).resolves.toMatchObject({ opened: false });
    expect(s.systemOpened).toEqual([]);
  });
});
