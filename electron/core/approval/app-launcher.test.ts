import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandLauncher, defaultLauncher } from './app-launcher';

describe('choosing how to start the app', () => {
  it('is off with COUNTERSIGN_GATEWAY_AUTOSTART=0', () => {
    expect(
      defaultLauncher({ env: { COUNTERSIGN_GATEWAY_AUTOSTART: '0', COUNTERSIGN_APP_COMMAND: '["x"]' } }),
    ).toBeNull();
  });

  it('takes COUNTERSIGN_APP_COMMAND first, and refuses one that is not a JSON array of strings', () => {
    expect(
      defaultLauncher({ env: { COUNTERSIGN_APP_COMMAND: '["/opt/countersign/countersign", "--x"]' } })?.description,
    ).toBe('COUNTERSIGN_APP_COMMAND');
    expect(() => defaultLauncher({ env: { COUNTERSIGN_APP_COMMAND: '/opt/countersign' } })).toThrow();
    expect(() => defaultLauncher({ env: { COUNTERSIGN_APP_COMMAND: '[1]' } })).toThrow(/JSON array of strings/);
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

  it('reports a command that cannot run', async () => {
    const { exited } = await commandLauncher(['/nonexistent/countersign-app']).start(tmpdir());
    expect(await exited).toBe(-1);
  });
});
