import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandLauncher, defaultLauncher } from './app-launcher';

describe('choosing how to start the app', () => {
  it('is off with COUNTERSIGN_GATEWAY_AUTOSTART=0', () => {
    expect(defaultLauncher({ env: { COUNTERSIGN_GATEWAY_AUTOSTART: '0' } })).toBeNull();
  });

  it('takes app-command.json in the data folder first, and refuses one that is not an array of strings', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cs-launch-'));
    writeFileSync(join(dataDir, 'app-command.json'), '{"command": ["/opt/countersign/countersign", "--x"]}');
    expect(defaultLauncher({ env: {}, dataDir })?.description).toBe('app-command.json');
    writeFileSync(join(dataDir, 'app-command.json'), '{"command": "/opt/countersign"}');
    expect(() => defaultLauncher({ env: {}, dataDir })).toThrow(/"command" must be a non-empty array of strings/);
    writeFileSync(join(dataDir, 'app-command.json'), '{"command": [');
    expect(() => defaultLauncher({ env: {}, dataDir })).toThrow(/app-command\.json is not JSON/);
  });

  it('never takes the app from its launch environment (the agent chooses that), and says so', () => {
    const logs: string[] = [];
    const launcher = defaultLauncher({
      env: { COUNTERSIGN_APP_COMMAND: '["/tmp/fake-app"]' },
      platform: 'linux',
      from: tmpdir(),
      log: (l) => void logs.push(l),
    });
    expect(launcher).toBeNull();
    expect(logs.join('\n')).toContain('COUNTERSIGN_APP_COMMAND is ignored');
  });

  it('in a source tree without a built desktop app: `countersign web`, whose browser window the human sees', () => {
    const launcher = defaultLauncher({ env: {}, platform: 'linux' });
    expect(launcher?.description).toMatch(/countersign web|Electron/);
  });

  it('outside any Countersign tree and without an installed app: none', () => {
    expect(defaultLauncher({ env: {}, platform: 'linux', from: tmpdir() })).toBeNull();
  });
});

describe('commandLauncher', () => {
  it('starts the command detached with the data folder, and reports its exit code', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-launch-'));
    const out = join(dir, 'seen');
    const launcher = commandLauncher([
      process.execPath,
      '-e',
      `require('fs').writeFileSync(${JSON.stringify(out)}, process.env.COUNTERSIGN_DATA_DIR); process.exit(4)`,
    ]);
    const { exited } = await launcher.start(dir);
    expect(await exited).toBe(4);
    expect(readFileSync(out, 'utf8')).toBe(dir);
  });

  it('hands the app only the display, session and locale variables: nothing that changes how a program runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-launch-'));
    const out = join(dir, 'env.json');
    const launcher = commandLauncher(
      [process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(process.env))`],
      'env probe',
      {
        PATH: process.env.PATH,
        DISPLAY: ':7',
        NODE_OPTIONS: '--require /tmp/agent-code.js',
        ELECTRON_RUN_AS_NODE: '1',
        LD_PRELOAD: '/tmp/x.so',
        COUNTERSIGN_APP_COMMAND: '["x"]',
      },
    );
    expect(await (await launcher.start(dir)).exited).toBe(0);
    const seen = JSON.parse(readFileSync(out, 'utf8')) as Record<string, string>;
    expect(seen).toMatchObject({ DISPLAY: ':7', COUNTERSIGN_DATA_DIR: dir });
    for (const k of ['NODE_OPTIONS', 'ELECTRON_RUN_AS_NODE', 'LD_PRELOAD', 'COUNTERSIGN_APP_COMMAND'])
      expect(seen).not.toHaveProperty(k);
  });

  it('reports a command that cannot run', async () => {
    const { exited } = await commandLauncher(['/nonexistent/countersign-app']).start(tmpdir());
    expect(await exited).toBe(-1);
  });
});
