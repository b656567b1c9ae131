// A malformed servers.json is reported with its file, line and column by every
// reader (issue 9, item 17): the gateway said only "Expected ',' or ']' … at
// position 58". The gateway, the CLI, the app's service (desktop and web shell)
// all read it through one loader.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runGatewayCommand } from '../../electron/cli/gateway-command';
import type { CliIo } from '../../electron/cli/io';
import { runCli } from '../../electron/cli/main';
import { lineColumn, parseJsonText } from '../../electron/core/config/json-text';
import { readServerConfigFile } from '../../electron/core/config/server-config';
import { messageOf } from '../../electron/core/host-error';
import { HostService } from '../../electron/core/service/host-service';
import { importServers } from '../../electron/core/service/import-servers';

// Line 4, column 7: the missing comma after "-y".
const BROKEN = `{
  "mcpServers": {
    "files": { "command": "npx",
      "args": ["-y" "@modelcontextprotocol/server-filesystem"] }
  }
}
`;

function io(): { cli: CliIo; err: string[] } {
  const err: string[] = [];
  return {
    err,
    cli: { stdout: () => undefined, stderr: (t) => void err.push(t), env: { COUNTERSIGN_GATEWAY_AUTOSTART: '0' } },
  };
}

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'countersign-badjson-'));
  file = join(dir, 'servers.json');
  writeFileSync(file, BROKEN);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const WHERE = () => `${file}:4:21: not valid JSON`;

describe('servers.json syntax errors name the file, line and column', () => {
  it('the one loader', async () => {
    await expect(readServerConfigFile(file)).rejects.toThrow(WHERE());
    expect(await readServerConfigFile(join(dir, 'missing.json'))).toBeUndefined();
  });

  it('the gateway', async () => {
    const { cli, err } = io();
    expect(await runGatewayCommand(['--data-dir', dir], cli)).toBe(2);
    expect(err.join('\n')).toContain(WHERE());
    expect(err.join('\n')).not.toMatch(/at position/);
  });

  it('the CLI (call --server)', async () => {
    const { cli, err } = io();
    expect(await runCli(['call', '--config', file, '--server', 'files', '--tool', 'x'], cli)).toBe(2);
    expect(err.join('\n')).toContain(WHERE());
  });

  it('the app and web shell service', async () => {
    const error = await HostService.create({ dataDir: dir, connectOnStart: false, openExternal: async () => undefined })
      .then(() => undefined)
      .catch((e: unknown) => messageOf(e));
    expect(error).toContain(WHERE());
  });

  it('an imported file', () => {
    expect(() => importServers(BROKEN, new Set())).toThrow('the imported file:4:21: not valid JSON');
  });
});

describe('parseJsonText', () => {
  it('turns offsets into 1-based lines and columns', () => {
    expect(lineColumn('abc', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('a\nbc', 3)).toEqual({ line: 2, column: 2 });
    expect(lineColumn('a\r\nb', 3)).toEqual({ line: 2, column: 1 });
  });

  it('reports the end of the text for a truncated document, and takes a BOM', () => {
    expect(() => parseJsonText('{\n  "a": [1,', 'x.json')).toThrow(/^x\.json:2:\d+: not valid JSON/);
    expect(parseJsonText('\ufeff{"a":1}', 'x.json')).toEqual({ a: 1 });
  });
});
