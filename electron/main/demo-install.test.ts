import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoServers } from '../demo/demo-servers';
import { installStableDemo, stableDemoFile } from './demo-install';

function packagedApp(version: string): string {
  const resources = mkdtempSync(join(tmpdir(), 'cs-mount-'));
  mkdirSync(join(resources, 'dist', 'demo'), { recursive: true });
  writeFileSync(join(resources, 'dist', 'demo', 'demo-server.mjs'), `// demo ${version}\n`);
  return resources;
}

describe('stable demo install', () => {
  it('copies the bundled demo into the data folder and launches it from there, through $APPIMAGE', async () => {
    const data = mkdtempSync(join(tmpdir(), 'cs-data-'));
    const launch = await installStableDemo(
      packagedApp('1'),
      data,
      { APPIMAGE: '/home/u/Countersign.AppImage' },
      '/tmp/.mount_abc/countersign',
    );
    expect(launch).toMatchObject({
      command: '/home/u/Countersign.AppImage',
      args: [stableDemoFile(data)],
      kind: 'bundled',
    });
    const entries = demoServers(launch);
    expect(Object.values(entries).map((e) => ('command' in e ? e.args : []))).toEqual([
      [stableDemoFile(data)],
      [stableDemoFile(data), '--legacy'],
    ]);
  });

  it('refreshes the copy on every start, so the saved entry keeps working after an update or a new mount', async () => {
    const data = mkdtempSync(join(tmpdir(), 'cs-data-'));
    const first = await installStableDemo(packagedApp('1'), data, {}, '/opt/Countersign/countersign');
    const second = await installStableDemo(packagedApp('2'), data, {}, '/opt/Countersign/countersign');
    expect(second).toEqual(first);
    expect(readFileSync(stableDemoFile(data), 'utf8')).toBe('// demo 2\n');
  });
});
