// Gaps of issue 9, item 10. The app asks through two gates: its own Host's
// (the app's calls) and the approval server's (questions relayed by
// gateways). Each counted waiting questions per server on its own, so a
// server reached directly and through gateways could have 2 × 32 waiting;
// and gateway questions got only the gateway's own time limit, never the
// app's Settings. Real HostService, real approval server, the real gateway
// side (ApprovalClient) and the real modern fixture server.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AskFrame } from '../../electron/core/approval/approval-client';
import { ApprovalClient } from '../../electron/core/approval/approval-client';
import { startApprovalServer } from '../../electron/core/approval/approval-server';
import { LIMITS } from '../../electron/core/limits';
import { messageOf } from '../../electron/core/host-error';
import { effectiveTimeLimit } from '../../electron/core/prompter/question-gate';
import { HostService } from '../../electron/core/service/host-service';
import { fixtureCommand } from '../fixtures/spawn-fixture';

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function appWithGatewaySide() {
  const dataDir = mkdtempSync(join(tmpdir(), 'cs-gates-'));
  const modern = fixtureCommand('modern');
  writeFileSync(join(dataDir, 'servers.json'), JSON.stringify({ mcpServers: { kimai: modern } }));
  const svc = await HostService.create({
    dataDir,
    openExternal: async () => undefined,
    connectOnStart: false,
    watchConfig: false,
  });
  svc.log = () => undefined;
  cleanup.push(() => svc.close());
  const logs: string[] = [];
  const approval = await startApprovalServer({ service: svc, dataDir, app: 'test', log: (l) => void logs.push(l) });
  cleanup.push(() => approval.close());
  const gateway = new ApprovalClient({ dataDir, launcher: null, log: () => undefined, startTimeoutMs: 3_000 });
  cleanup.push(() => gateway.close());
  return { svc, gateway, logs };
}

const gatewayAsk = (i: number): AskFrame => ({
  question: { mode: 'form', message: `Delete entry ${i}?`, requestedSchema: { type: 'object', properties: {} } },
  context: { server: 'kimai', era: 'modern', method: 'tools/call', name: 'delete_entry', round: 1, key: 'confirm' },
  call: {
    callId: `gw-call-${i}`,
    server: 'kimai',
    era: 'modern',
    protocolVersion: '2026-07-28',
    method: 'tools/call',
    name: 'delete_entry',
    agent: 'agent#stdio-1',
  },
});

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('one count of waiting questions per server, across the app and its gateways', () => {
  it(`a server asking directly and through a gateway has at most ${LIMITS.pendingPerServer} waiting in all`, async () => {
    const { svc, gateway, logs } = await appWithGatewaySide();
    // Each side alone stays under the limit; together they pass it by 8, whatever the limit is.
    const perSide = LIMITS.pendingPerServer / 2 + 4;
    const direct = perSide;
    for (let i = 0; i < direct; i++)
      await svc.invoke('callTool', { server: 'kimai', tool: 'confirm_delete', args: { entryId: i } });
    await until(() => svc.pendingQuestionCount() === direct, `${direct} direct questions`);

    const controller = new AbortController();
    const relayed = Array.from({ length: perSide }, (_, i) =>
      gateway.ask(gatewayAsk(i), controller.signal).then(
        () => 'answered',
        (e: unknown) => messageOf(e),
      ),
    );
    const refusal = `server "kimai" already has ${LIMITS.pendingPerServer} questions waiting for the user (the host's limit is ${LIMITS.pendingPerServer}); this one was not shown`;
    const refused = relayed.length - (LIMITS.pendingPerServer - direct);
    const settled: string[] = [];
    for (const p of relayed) void p.then((r) => settled.push(r));
    await until(() => settled.length === refused, `${refused} refused gateway questions`);
    // The app's gate refused them, as it refuses its own: the gateway ends each call with the refusal's code
    // (the agent's sentence is made from the code alone), and the app's log says why.
    expect(settled).toEqual(Array(refused).fill(refusal));
    expect(logs.filter((l) => l.includes(refusal))).toHaveLength(refused);
    expect(svc.pendingQuestionCount()).toBe(LIMITS.pendingPerServer);
    controller.abort();
  });
});

describe('the question time limit of gateway questions', () => {
  it("the app's Settings apply to a gateway question (the gateway reported none)", async () => {
    const { svc, gateway } = await appWithGatewaySide();
    await svc.invoke('updateSettings', { questionTimeLimitMinutes: 7 });
    const shown = new Promise<number | undefined>((resolve) =>
      svc.on('questionAdded', (q) => resolve(q.origin.timeLimitMinutes)),
    );
    const controller = new AbortController();
    void gateway.ask(gatewayAsk(1), controller.signal).catch(() => undefined);
    expect(await shown).toBe(7);
    controller.abort();
  });

  it('the stricter of the two applies; 0 is none', () => {
    expect(effectiveTimeLimit(7, 3)).toBe(3);
    expect(effectiveTimeLimit(3, 7)).toBe(3);
    expect(effectiveTimeLimit(0, 5)).toBe(5);
    expect(effectiveTimeLimit(5, undefined)).toBe(5);
    expect(effectiveTimeLimit(0, undefined)).toBe(0);
  });
});
