// The gateway's Streamable HTTP endpoint on 127.0.0.1: nothing without the
// bearer token, and with it the same guarantees as over stdio, for both eras.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cancelFromAgent,
  GATEWAY_ENTRY,
  eventually,
  httpAgent,
  leaks,
  makeDataDir,
  serverFinalStrings,
  startApp,
  textOf,
  tsxLoader,
  type App,
} from './harness';

interface Running {
  child: ChildProcess;
  url: string;
  lines: string[];
  stop(): Promise<void>;
}

function startHttpGateway(dataDir: string, extra: string[] = []): Promise<Running> {
  const child = spawn(process.execPath, ['--import', tsxLoader, GATEWAY_ENTRY, '--http', ...extra], {
    env: {
      ...process.env,
      COUNTERSIGN_DATA_DIR: dataDir,
      COUNTERSIGN_GATEWAY_AUTOSTART: '0',
      COUNTERSIGN_GATEWAY_PROGRESS_MS: '150',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => void (stderr += c.toString('utf8')));
  const lines: string[] = [];
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no LISTENING line\n${stderr}`)), 20_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      const m = /^LISTENING (http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        // The token line follows at once.
        setTimeout(() => resolve({ child, url: m[1]!, lines, stop }), 50);
      }
    });
    child.once('exit', (code) => reject(new Error(`gateway exited (${code})\n${stderr}`)));
  });
}

let dataDir: string;
let wireLogs: Record<string, string>;
let app: App;
let gw: Running;
let token: string;

beforeAll(async () => {
  ({ dataDir, wireLogs } = makeDataDir({ modern: 'modern', legacy: 'legacy' }));
  app = await startApp(dataDir);
  gw = await startHttpGateway(dataDir);
  const file = join(dataDir, 'run', 'gateway-http.token');
  token = readFileSync(file, 'utf8').trim();
});

afterAll(async () => {
  await gw?.stop();
  await app?.close();
});

/** A raw POST of an initialize request (node:http, so even the Host header can be forged). */
const post = (headers: Record<string, string>, url = gw.url): Promise<{ status: number }> =>
  new Promise((resolve, reject) => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0 });
      },
    );
    req.on('error', reject);
    req.end(body);
  });

describe('the HTTP endpoint', () => {
  it('prints the token once, keeps it in a file only the user can read', () => {
    expect(gw.lines[1]).toBe(
      `Bearer token (new; also saved in ${join(dataDir, 'run', 'gateway-http.token')}): ${token}`,
    );
    expect(token.length).toBeGreaterThanOrEqual(43);
    if (process.platform !== 'win32') {
      expect(statSync(join(dataDir, 'run', 'gateway-http.token')).mode & 0o777).toBe(0o600);
      expect(statSync(join(dataDir, 'run')).mode & 0o777).toBe(0o700);
    }
  });

  it('refuses every request without the right token, from the wrong host, or on another path', async () => {
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post({ authorization: `Basic ${token}` })).status).toBe(401);
    expect((await post({ authorization: `Bearer ${token}`, host: 'evil.example' })).status).toBe(403);
    expect((await post({ authorization: `Bearer ${token}`, origin: 'https://evil.example' })).status).toBe(403);
    // A page of another local server (another port on this computer) is no more the gateway's own.
    const own = new URL(gw.url).origin;
    const otherPort = `http://127.0.0.1:${Number(new URL(gw.url).port) + 1}`;
    for (const origin of ['http://localhost:3000', otherPort, own.replace('127.0.0.1', 'localhost'), 'null'])
      expect({ origin, status: (await post({ authorization: `Bearer ${token}`, origin })).status }).toEqual({
        origin,
        status: 403,
      });
    expect((await post({ authorization: `Bearer ${token}` }, gw.url.replace('/mcp', '/other'))).status).toBe(404);
    await expect(httpAgent(gw.url, undefined)).rejects.toThrow();
  });

  it('takes the token with its own Origin, or with none (an agent that is no browser)', async () => {
    expect((await post({ authorization: `Bearer ${token}`, origin: new URL(gw.url).origin })).status).toBe(200);
    expect((await post({ authorization: `Bearer ${token}` })).status).toBe(200);
  });

  for (const era of ['modern', 'legacy'] as const) {
    it(`serves a ${era} agent with the token: the human answers, the agent gets the result only`, async () => {
      const agent = await httpAgent(gw.url, token, { era, name: `${era}-http-agent` });
      try {
        const names = (await agent.client.listTools()).tools.map((t) => t.name);
        expect(names).toEqual(expect.arrayContaining(['modern__confirm_delete', 'legacy__confirm_delete']));
        app.reply({ action: 'accept' }, { action: 'decline' });
        expect(
          textOf(await agent.client.callTool({ name: 'modern__confirm_delete', arguments: { entryId: 21 } })),
        ).toBe('deleted entry 21');
        expect(
          textOf(await agent.client.callTool({ name: 'legacy__confirm_delete', arguments: { entryId: 22 } })),
        ).toBe('declined by the user, nothing was deleted');
        const strings = new Set([...serverFinalStrings(wireLogs.modern!), ...serverFinalStrings(wireLogs.legacy!)]);
        expect(leaks(agent.received, ['Delete time entry 21?', 'Delete time entry 22?'], strings)).toEqual([]);
        expect(agent.violations).toEqual([]);
        // A 2025-era agent has a session, which the label names too.
        expect(app.history.asked.at(-1)!.call?.agent).toMatch(
          new RegExp(`^${era}-http-agent 1\\.0\\.0 \\(http-[0-9a-f]{6}${era === 'legacy' ? '-[0-9a-f]{6}' : ''}\\)$`),
        );
      } finally {
        await agent.close();
      }
    });
  }

  it('progress over HTTP, and a hung-up agent closes the dialog', async () => {
    const agent = await httpAgent(gw.url, token, { era: 'modern' });
    try {
      const progress: unknown[] = [];
      app.reply(async () => {
        await new Promise((r) => setTimeout(r, 500));
        return { action: 'accept' };
      });
      const r = await agent.client.callTool(
        { name: 'modern__confirm_delete', arguments: { entryId: 23 } },
        {
          onprogress: (p: unknown) => void progress.push(p),
        },
      );
      expect(textOf(r)).toBe('deleted entry 23');
      expect(progress.length).toBeGreaterThanOrEqual(1);

      await cancelFromAgent(app, agent, 'modern__confirm_delete', { entryId: 24 });
    } finally {
      await agent.close();
    }
  });

  it("keeps a 2026-07-28 call alive across the agent's requests, each its own HTTP exchange", async () => {
    const kept = await startHttpGateway(dataDir, ['--keep-alive', '0.4']);
    try {
      const agent = await httpAgent(kept.url, token, { era: 'modern' });
      // As agents do: list first (which starts the servers), then call with a short timeout.
      await agent.client.listTools();
      app.reply(async () => {
        await new Promise((r) => setTimeout(r, 3_000));
        return { action: 'accept' };
      });
      const from = agent.received.length;
      const r = await agent.client.callTool(
        { name: 'modern__confirm_delete', arguments: { entryId: 81 } },
        { timeout: 1_200 },
      );
      expect(textOf(r)).toBe('deleted entry 81');
      const legs = agent.received.slice(from).filter((m) => m?.result?.resultType === 'input_required');
      expect(legs.length).toBeGreaterThanOrEqual(2);
      for (const leg of legs) expect(leg.result.inputRequests).toBeUndefined();
      await agent.close();
    } finally {
      await kept.stop();
    }
  });

  it('tells agents of both eras when the servers change', async () => {
    const modern = await httpAgent(gw.url, token, { era: 'modern' });
    const legacy = await httpAgent(gw.url, token, { era: 'legacy' });
    try {
      await modern.client.listTools();
      await legacy.client.listTools();
      await new Promise((r) => setTimeout(r, 300)); // the listen stream and the GET stream open
      const file = join(dataDir, 'servers.json');
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      doc.mcpServers.again = doc.mcpServers.modern;
      writeFileSync(file, JSON.stringify(doc));
      const told = (a: typeof modern) => a.received.some((m) => m.method === 'notifications/tools/list_changed');
      await eventually(() => told(modern) && told(legacy), 10_000, 'list_changed on both agents');
      expect((await legacy.client.listTools()).tools.map((t) => t.name)).toContain('again__echo');
    } finally {
      await modern.close();
      await legacy.close();
    }
  });

  it('keeps the token across restarts (agent configurations stay valid), and --new-token replaces it', async () => {
    await gw.stop();
    gw = await startHttpGateway(dataDir);
    expect(gw.lines[1]).toBe(`Bearer token: saved in ${join(dataDir, 'run', 'gateway-http.token')}`);
    expect(readFileSync(join(dataDir, 'run', 'gateway-http.token'), 'utf8').trim()).toBe(token);
    await gw.stop();
    gw = await startHttpGateway(dataDir, ['--new-token']);
    const fresh = readFileSync(join(dataDir, 'run', 'gateway-http.token'), 'utf8').trim();
    expect(fresh).not.toBe(token);
    expect((await post({ authorization: `Bearer ${token}` })).status).toBe(401);
  });
});
