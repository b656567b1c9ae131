// `npm start` picks the Electron app where it can run and says which mode
// started and why (issue 9, item 14). Before, the binary was never fetched
// and the reason was never said.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chooseStartMode, installedElectron } from './start-mode.mjs';

const script = join(dirname(fileURLToPath(import.meta.url)), 'start-mode.mjs');

function probes(over: { env?: Record<string, string>; platform?: string; binary?: string; fetchOk?: boolean } = {}) {
  const fetched: number[] = [];
  let binary = over.binary;
  return {
    fetched,
    probes: {
      env: over.env ?? {},
      platform: over.platform ?? 'linux',
      electronBinary: () => binary,
      fetchElectron: () => {
        fetched.push(1);
        if (over.fetchOk) binary = '/downloaded/electron';
        return over.fetchOk ?? false;
      },
    },
  };
}

describe('chooseStartMode', () => {
  it('starts Electron when a display is present and the binary is there', () => {
    const { probes: p, fetched } = probes({ env: { DISPLAY: ':0' }, binary: '/e/electron' });
    expect(chooseStartMode(p)).toEqual({
      mode: 'electron',
      electron: '/e/electron',
      reason: 'a display is present (DISPLAY=:0)',
    });
    expect(fetched).toEqual([]);
  });

  it('fetches Electron where it can (a display, not CI), then starts it', () => {
    const { probes: p, fetched } = probes({ env: { WAYLAND_DISPLAY: 'wayland-0' }, fetchOk: true });
    expect(chooseStartMode(p)).toMatchObject({ mode: 'electron', electron: '/downloaded/electron' });
    expect(fetched).toEqual([1]);
  });

  it('never fetches in CI, nor without a display, and says so', () => {
    const ci = probes({ env: { DISPLAY: ':0', CI: 'true' } });
    expect(chooseStartMode(ci.probes)).toEqual({ mode: 'web', reason: 'Electron is not downloaded in CI (CI=true)' });
    const headless = probes({ env: {} });
    expect(chooseStartMode(headless.probes)).toEqual({
      mode: 'web',
      reason: 'no display (neither DISPLAY nor WAYLAND_DISPLAY is set)',
    });
    expect([...ci.fetched, ...headless.fetched]).toEqual([]);
    // CI=false is not CI.
    expect(chooseStartMode(probes({ env: { DISPLAY: ':0', CI: 'false' }, fetchOk: true }).probes).mode).toBe(
      'electron',
    );
  });

  it('falls back to the web shell with the reason when the download fails, or when asked to', () => {
    expect(chooseStartMode(probes({ env: { DISPLAY: ':0' } }).probes)).toMatchObject({
      mode: 'web',
      reason: expect.stringMatching(/could not be downloaded/),
    });
    expect(chooseStartMode(probes({ env: { COUNTERSIGN_WEB: '1', DISPLAY: ':0' }, binary: '/e' }).probes)).toEqual({
      mode: 'web',
      reason: 'COUNTERSIGN_WEB is set',
    });
  });

  it('treats macOS and Windows as having a display', () => {
    expect(chooseStartMode(probes({ platform: 'darwin', binary: '/e' }).probes).mode).toBe('electron');
    expect(chooseStartMode(probes({ platform: 'win32', binary: '/e' }).probes).mode).toBe('electron');
  });
});

describe('installedElectron', () => {
  it('reads the binary from path.txt without downloading, and only if it exists', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-electron-'));
    try {
      expect(installedElectron(dir)).toBeUndefined();
      writeFileSync(join(dir, 'path.txt'), 'electron');
      expect(installedElectron(dir)).toBeUndefined();
      mkdirSync(join(dir, 'dist'));
      writeFileSync(join(dir, 'dist', 'electron'), '');
      chmodSync(join(dir, 'dist', 'electron'), 0o755);
      expect(installedElectron(dir)).toBe(resolve(dir, 'dist', 'electron'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the script', () => {
  it('prints the mode on stdout and one line with the reason on stderr', () => {
    const env = { ...process.env, CI: 'true', DISPLAY: ':7' };
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8', env });
    expect(r.status).toBe(0);
    if (installedElectron()) {
      expect(r.stdout).toMatch(/^electron \/.+\n$/);
      expect(r.stderr).toMatch(
        /^== starting the desktop app \(Electron [\d.]+\): a display is present \(DISPLAY=:7\)\n$/,
      );
    } else {
      // No Electron binary, and CI: the web shell, and why (nothing was downloaded).
      expect(r.stdout).toBe('web\n');
      expect(r.stderr).toBe(
        '== starting the web shell (the same app, in your browser): Electron is not downloaded in CI (CI=true)\n',
      );
    }
  });
});
