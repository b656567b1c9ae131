// Inside an AppImage (and after any update) the app's own folder and binary
// path change from run to run, so a demo entry written to servers.json with
// those paths would break on the next start. The packaged app therefore
// copies the bundled demo server into the data folder at every start and
// starts it through a path that stays put: $APPIMAGE when set, else the
// executable.
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { demoLaunch, type DemoLaunch } from '../demo/demo-servers';

/** Where the stable copy lives: `<dataDir>/demo/demo-server.mjs`. */
export function stableDemoFile(dataDir: string): string {
  return join(dataDir, 'demo', 'demo-server.mjs');
}

/**
 * Refresh the stable copy from the bundled demo found from `searchDir`, and
 * return how to launch it; null when the build ships no bundled demo (the
 * source-tree launch is returned unchanged for development runs).
 */
export async function installStableDemo(
  searchDir: string,
  dataDir: string,
  env: NodeJS.ProcessEnv,
  execPath: string,
): Promise<DemoLaunch | null> {
  const found = demoLaunch(searchDir, execPath);
  if (!found || found.kind !== 'bundled') return found;
  const target = stableDemoFile(dataDir);
  await mkdir(join(dataDir, 'demo'), { recursive: true, mode: 0o700 });
  // The bundled file is the last argument; the flags before it (the inspector guard) stay.
  const flags = found.args.slice(0, -1);
  await copyFile(found.args.at(-1)!, target);
  return { ...found, command: env.APPIMAGE ?? execPath, args: [...flags, target] };
}
