// The host API over the real core, a real journal and real fixture servers:
// what the desktop window and the web shell rely on.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HIDDEN_VALUE } from '../../../shared/config/server-entry';
import type { HostEvents } from '../../../shared/host-api/contract';
import type { Question } from '../../../shared/elicitation/types';
import { RICH_SCHEMA } from '../../../test/fixtures/servers/modern-server';
import { fixtureCommand } from '../../../test/fixtures/spawn-fixture';
import { HostService } from './host-service';
import { JournalHistory } from './journal-history';

let service: HostService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function start(opened: string[] = []) {
  const dataDir = mkdtempSync(join(tmpdir(), 'cs-svc-'));
  const history = await JournalHistory.open(join(dataDir, 'history'));
  const modern = fixtureCommand('modern');
  service = await HostService.create({
    dataDir,
    history,
    openExternal: async (url) => void opened.push(url),
    firstStartServers: { kimai: { command: modern.command, args: modern.args } },
    connectOnStart: false,
    pacingDelayMs: 20,
  });
  service.log = () => undefined;
  return { service, dataDir, opened };
}

function next<E extends keyof HostEvents>(
  svc: HostService,
  event: E,
  where: (p: HostEvents[E]) => boolean = () => true,
): Promise<HostEvents[E]> {
  return new Promise((resolve) => {
    const off = svc.on(event, (p) => {
      if (where(p)) {
        off();
        resolve(p);
      }
    });
  });
}

describe('HostService', () => {
  it('writes the first-start servers and lists them', async () => {
    const { service: svc, dataDir } = await start();
    const views = await svc.listServers({});
    expect(views.map((v) => [v.name, v.status])).toEqual([['kimai', 'idle']]);
    expect(JSON.parse(readFileSync(join(dataDir, 'servers.json'), 'utf8')).mcpServers.kimai.command).toBe(
      process.execPath,
    );
  });

  it('refuses unknown methods and malformed params with a clear error, and logs them', async () => {
    const { service: svc } = await start();
    const logged: string[] = [];
    svc.log = (l) => void logged.push(l);
    await expect(svc.invoke('openShell', {})).rejects.toThrow('unknown host API method "openShell"');
    await expect(svc.invoke('answerQuestion', { questionId: 'x', answer: { action: 'maybe' } })).rejects.toThrow(
      /^answerQuestion: invalid answer\.action/,
    );
    await expect(svc.invoke('callTool', { server: 'kimai', tool: 'x', args: [] })).rejects.toThrow(
      /callTool: invalid args/,
    );
    await expect(svc.invoke('addServer', { name: 'x', entry: { command: 'a' }, extra: 1 })).rejects.toThrow(
      /addServer/,
    );
    expect(logged).toHaveLength(4);
  });

  it('runs a call whose question is answered through the API, and records it', async () => {
    const { service: svc } = await start();
    const asked = next(svc, 'questionAdded');
    const { callId } = await svc.callTool({
      server: 'kimai',
      tool: 'confirm_delete',
      args: { entryId: 12 },
    });
    const q = await asked;
    expect(q.mode).toBe('form');
    expect(q.origin).toMatchObject({
      server: 'kimai',
      method: 'tools/call',
      name: 'confirm_delete',
      argumentsSummary: 'entryId=12',
    });
    expect(await svc.listQuestions({})).toHaveLength(1);
    const done = next(svc, 'callUpdated', (c) => c.callId === callId && c.state !== 'running');
    const removed = next(svc, 'questionRemoved');
    await svc.invoke('answerQuestion', { questionId: q.id, answer: { action: 'decline' } });
    expect(await removed).toEqual({ questionId: q.id, reason: 'answered' });
    const end = await done;
    expect(end.state).toBe('complete');
    expect(JSON.stringify(end.result)).toContain('declined by the user, nothing was deleted');
    // A second answer to the same question is refused: none is answered twice.
    await expect(svc.invoke('answerQuestion', { questionId: q.id, answer: { action: 'accept' } })).rejects.toThrow(
      /not waiting/,
    );
    const history = await svc.queryHistory({ limit: 10 });
    expect(history.total).toBe(1);
    expect(history.entries[0]).toMatchObject({
      question: { message: 'Delete time entry 12?' },
      answer: { action: 'decline', decidedBy: 'human' },
      callEnd: { outcome: 'complete' },
    });
  });

  it('keeps no result once a call has ended (the callUpdated event carried it)', async () => {
    const { service: svc } = await start();
    const text = 'r'.repeat(1024 * 1024);
    for (let i = 0; i < 5; i++) {
      const { callId } = await svc.callTool({ server: 'kimai', tool: 'echo', args: { text } });
      expect(svc.runningCalls).toBe(1);
      const end = await next(svc, 'callUpdated', (c) => c.callId === callId && c.state !== 'running');
      expect(end.state).toBe('complete');
      expect(JSON.stringify(end.result)).toContain(text);
      expect(svc.runningCalls).toBe(0);
    }
  });

  it('keeps an invalid answer from the form open instead of losing it', async () => {
    const { service: svc } = await start();
    const asked = next(svc, 'questionAdded');
    await svc.invoke('callTool', { server: 'kimai', tool: 'two_rounds', args: {} });
    const q = await asked;
    await expect(
      svc.invoke('answerQuestion', { questionId: q.id, answer: { action: 'accept', content: { name: '' } } }),
    ).rejects.toThrow(/does not match the form/);
    expect((await svc.listQuestions({})).map((x) => x.id)).toEqual([q.id]);
    const second = next(svc, 'questionAdded');
    await svc.invoke('answerQuestion', { questionId: q.id, answer: { action: 'accept', content: { name: 'Ada' } } });
    expect((await second).message).toBe('Book the time for Ada?');
  });

  it('opens a URL only for a pending URL question, exactly as sent, and records that it was opened', async () => {
    const { service: svc, opened } = await start();
    const asked = next(svc, 'questionAdded');
    const { callId } = await svc.callTool({ server: 'kimai', tool: 'connect_account', args: {} });
    const q = await asked;
    if (q.mode !== 'url') throw new Error('expected a URL question');
    expect(await svc.invoke('openQuestionUrl', { questionId: 'nope' })).toEqual({
      opened: false,
      reason: 'the question is no longer waiting',
    });
    expect(await svc.invoke('openQuestionUrl', { questionId: q.id })).toEqual({ opened: true });
    expect(opened).toEqual([q.url.href]);
    const done = next(svc, 'callUpdated', (c) => c.callId === callId && c.state !== 'running');
    await svc.invoke('answerQuestion', { questionId: q.id, answer: { action: 'accept' } });
    expect(JSON.stringify((await done).result)).toContain('account connected');
    const h = await svc.queryHistory({});
    expect(h.entries[0]).toMatchObject({ answer: { urlOpened: true } });
  });

  it('withdraws a question whose call is cancelled, with a note', async () => {
    const { service: svc } = await start();
    const asked = next(svc, 'questionAdded');
    const { callId } = await svc.callTool({
      server: 'kimai',
      tool: 'confirm_delete',
      args: { entryId: 1 },
    });
    const q = await asked;
    const removed = next(svc, 'questionRemoved');
    const done = next(svc, 'callUpdated', (c) => c.callId === callId && c.state !== 'running');
    expect(await svc.invoke('cancelCall', { callId })).toEqual({ cancelled: true });
    expect(await removed).toMatchObject({ questionId: q.id, reason: 'call-cancelled' });
    expect((await done).state).toBe('cancelled');
    expect(await svc.invoke('listQuestions', {})).toEqual([]);
  });

  it('mutes a server for the session: its questions are cancelled automatically and say so in the history', async () => {
    const { service: svc } = await start();
    await svc.invoke('muteServer', { server: 'kimai', muted: true });
    let asked = 0;
    svc.on('questionAdded', () => void asked++);
    const { callId } = await svc.callTool({
      server: 'kimai',
      tool: 'confirm_delete',
      args: { entryId: 2 },
    });
    const end = await next(svc, 'callUpdated', (c) => c.callId === callId && c.state !== 'running');
    expect(JSON.stringify(end.result)).toContain('cancelled, nothing was deleted');
    expect(asked).toBe(0);
    const h = await svc.queryHistory({});
    expect(h.entries[0]).toMatchObject({ answer: { action: 'cancel', decidedBy: 'mute-rule' } });
  });

  it('tells a front end that connects later the latest approval-channel alert (a page opened after it)', async () => {
    const { service: svc } = await start();
    const seen: unknown[] = [];
    svc.events.on('appAlert', (a) => seen.push(a));
    await svc.invoke('listServers', {});
    expect(seen).toEqual([]);
    svc.alert({ kind: 'socket-replaced', message: 'another process holds run/approval.sock' });
    svc.alert({ kind: 'socket-restored', message: 'bound again' });
    seen.length = 0;
    await svc.invoke('listServers', {});
    expect(seen).toEqual([{ kind: 'socket-restored', message: 'bound again' }]);
  });

  it('never shows a front end a secret of a server entry, and an edit that sends it back hidden keeps it', async () => {
    const { service: svc, dataDir } = await start();
    const events: unknown[] = [];
    svc.events.on('serversChanged', (views) => events.push(views));
    const secret = 'Bearer sk-live-5f3a9c';
    await svc.invoke('addServer', {
      name: 'remote',
      entry: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: secret } },
    });
    await svc.invoke('addServer', { name: 'local', entry: { command: 'x', env: { API_KEY: 'key-123', LOG: 'info' } } });
    const views = await svc.invoke('listServers', {});
    const remote = views.find((v) => v.name === 'remote')!.entry;
    const local = views.find((v) => v.name === 'local')!.entry;
    expect(remote).toMatchObject({ headers: { Authorization: HIDDEN_VALUE } });
    expect(local).toMatchObject({ env: { API_KEY: HIDDEN_VALUE, LOG: HIDDEN_VALUE } });
    for (const shown of [JSON.stringify(views), JSON.stringify(events)]) {
      for (const value of [secret, 'key-123']) expect(shown).not.toContain(value);
    }

    // The form saved as shown, with one value typed anew: the hidden ones keep what is stored.
    await svc.invoke('updateServer', {
      name: 'local',
      entry: { command: 'y', env: { API_KEY: HIDDEN_VALUE, LOG: 'debug' } },
    });
    await svc.invoke('updateServer', { name: 'remote', entry: remote });
    const saved = JSON.parse(readFileSync(join(dataDir, 'servers.json'), 'utf8')).mcpServers;
    expect(saved.local).toEqual({ command: 'y', env: { API_KEY: 'key-123', LOG: 'debug' } });
    expect(saved.remote).toMatchObject({ headers: { Authorization: secret } });

    // A hidden value with nothing stored under its key is refused, never saved as "••••".
    await expect(
      svc.invoke('updateServer', { name: 'local', entry: { command: 'y', env: { OTHER: HIDDEN_VALUE } } }),
    ).rejects.toThrow('the value of variable "OTHER" is hidden and nothing is stored for it');
    await expect(
      svc.invoke('addServer', {
        name: 'copy',
        entry: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: HIDDEN_VALUE } },
      }),
    ).rejects.toThrow('the value of header "Authorization" is hidden');
    expect(readFileSync(join(dataDir, 'servers.json'), 'utf8')).not.toContain(HIDDEN_VALUE);
  });

  it('adds, updates, imports and removes servers, persisting mcpServers', async () => {
    const { service: svc, dataDir } = await start();
    await svc.invoke('addServer', { name: 'remote', entry: { url: 'http://127.0.0.1:9/mcp' } });
    await expect(svc.invoke('addServer', { name: 'remote', entry: { url: 'http://127.0.0.1:9/mcp' } })).rejects.toThrow(
      'already exists',
    );
    await svc.invoke('updateServer', { name: 'remote', entry: { url: 'http://127.0.0.1:8/mcp' } });
    const imported = await svc.importServers({
      json: JSON.stringify({
        mcpServers: {
          kimai: { command: 'x' },
          files: { command: 'npx', args: ['-y', 'fs-server'] },
          broken: { command: 7 },
        },
      }),
    });
    expect(imported.imported).toEqual(['files']);
    expect(imported.skipped.map((s) => s.name)).toEqual(['kimai', 'broken']);
    expect(imported.skipped[1]!.reason).toContain('field "command"');
    await svc.invoke('removeServer', { name: 'remote' });
    const saved = JSON.parse(readFileSync(join(dataDir, 'servers.json'), 'utf8')).mcpServers;
    expect(Object.keys(saved)).toEqual(['kimai', 'files']);
  });

  it('closes while a server is still starting, ending its process instead of waiting for it', async () => {
    // A stdio server that never answers its first message, as `npx -y <package>`
    // does while npm is still fetching (minutes when the registry retries).
    const { service: svc, dataDir } = await start();
    const pidFile = join(dataDir, 'silent.pid');
    const silent = "require('fs').writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1e6)";
    await svc.invoke('addServer', {
      name: 'silent',
      entry: { command: process.execPath, args: ['-e', silent, pidFile] },
    });
    const catalog = svc.listCatalog({ server: 'silent' });
    catalog.catch(() => undefined);
    while (!existsSync(pidFile)) await new Promise((resolve) => setTimeout(resolve, 20));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await svc.close();
    service = undefined;
    await expect(catalog).rejects.toThrow('connecting to "silent" was cancelled');
    // Ended by the SDK's transport close in its own time (stdin closed, 2 s, then SIGTERM), which close() does not
    // await: on Node 24 under load the process was still there right after. It never exits by itself (it reads no
    // stdin), so its end within 10 s is the host's doing.
    await vi.waitFor(() => expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' })), {
      timeout: 10_000,
      interval: 50,
    });
  });

  it('an import answers with the plan as written: a value typed for an input never travels back', async () => {
    const { service: svc } = await start();
    const json = JSON.stringify({
      inputs: [{ type: 'promptString', id: 'k', description: 'Key', password: true }],
      servers: { keyed: { command: 'sh', args: ['-c', 'exit 0', '--key=${input:k}'] } },
    });
    const done = await svc.invoke('importServers', { json, fileName: 'mcp.json', inputs: { k: 'typed-secret-9' } });
    expect(done.imported).toEqual(['keyed']);
    expect(JSON.stringify(done)).not.toContain('typed-secret-9');
    expect((await svc.invoke('listServers', {})).find((v) => v.name === 'keyed')).toBeDefined();
  });

  it('a server lacking a value is not started and its view lists what it needs, for the card to say in words', async () => {
    const { service: svc } = await start();
    delete process.env['CS_SVC_NEEDS_UNSET'];
    const modern = fixtureCommand('modern');
    const failed = next(svc, 'serversChanged', (vs) => vs.some((v) => v.name === 'brave' && v.status === 'error'));
    await svc.invoke('addServer', {
      name: 'brave',
      entry: { command: modern.command, args: modern.args, env: { KEY: '${env:CS_SVC_NEEDS_UNSET}' } },
    });
    const view = (await failed).find((v) => v.name === 'brave')!;
    expect(view).toMatchObject({
      status: 'error',
      needs: ['${env:CS_SVC_NEEDS_UNSET} in env.KEY (the environment variable CS_SVC_NEEDS_UNSET is not set)'],
    });
    expect(view.error).toContain('needs a value before it can start');
  });

  it('keeps JSON Schema 2020-12 keywords of tool input schemas verbatim', async () => {
    const { service: svc } = await start();
    const catalog = await svc.listCatalog({ server: 'kimai' });
    const rich = catalog.tools.find((t) => t.name === 'rich_schema')!;
    // $schema, $defs with $anchor, allOf/anyOf, if/then/else and additionalProperties, all as the server sent them.
    expect(rich.inputSchema).toEqual(RICH_SCHEMA);
    const add = catalog.tools.find((t) => t.name === 'add_numbers')!;
    expect(add.inputSchema).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
    });
  });

  it('persists settings and applies the round limit', async () => {
    const { service: svc, dataDir } = await start();
    expect(await svc.invoke('updateSettings', { maxRounds: 2, language: 'de' })).toMatchObject({
      maxRounds: 2,
      language: 'de',
      theme: 'system',
    });
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')).language).toBe('de');
    await expect(svc.invoke('updateSettings', { maxRounds: 0 })).rejects.toThrow(/maxRounds/);
  });

  it('exports the filtered history as JSON Lines and CSV', async () => {
    const { service: svc } = await start();
    const asked = next(svc, 'questionAdded');
    const { callId } = await svc.callTool({
      server: 'kimai',
      tool: 'confirm_delete',
      args: { entryId: 3 },
    });
    const done = next(svc, 'callUpdated', (c) => c.callId === callId && c.state !== 'running');
    await svc.invoke('answerQuestion', { questionId: (await asked).id, answer: { action: 'accept', content: {} } });
    await done;
    const jsonl = await svc.exportHistory({ filter: { server: 'kimai' }, format: 'jsonl' });
    if (!('data' in jsonl) || !('data' in (await svc.exportHistory({ filter: {}, format: 'csv' }))))
      throw new Error('without a download link, the export comes back as text');
    expect(jsonl.filename).toMatch(/^countersign-history-\d{4}-\d{2}-\d{2}\.jsonl$/);
    expect(JSON.parse(jsonl.data.trim()).question.message).toBe('Delete time entry 3?');
    const csv = (await svc.exportHistory({ filter: {}, format: 'csv' })) as { data: string };
    const [header, row] = csv.data.trim().split('\n');
    expect(header).toBe(
      'seq,asked,answered,server,era,method,name,round,key,mode,message,url,action,decided_by,content,call_outcome',
    );
    expect(row).toContain(
      'kimai,modern,tools/call,confirm_delete,1,confirm,form,Delete time entry 3?,,accept,human,{},complete',
    );
  });
});
