// Importing a VS Code mcp.json (JSONC: comments, trailing commas, a password
// `${input:…}`) in real Chromium through the web shell over a real
// HostService: the review shows what will run and writes nothing; a stdio
// server that would leave a marker file is not started before Add; axe finds
// nothing on the review; Add writes servers.json with the typed secret, and
// the page never shows it.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { fixtureCommand } from '../fixtures/spawn-fixture';
import { axe, confirmImport } from './app-shell';
import { browserSuite } from './browser-suite';

const suite = browserSuite();
const modern = fixtureCommand('modern');
const SECRET = 'kimai-api-key-5f3a9c';
let dir: string | undefined;

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

it('imports a VS Code mcp.json only after its review: nothing starts before Add, the password goes to servers.json', async () => {
  dir = await mkdtemp(join(tmpdir(), 'countersign-import-'));
  const marker = join(dir, 'started');
  const file = join(dir, 'mcp.json');
  await writeFile(
    file,
    `{
  // VS Code asks for this when the server starts; Countersign asks on import.
  "inputs": [
    { "type": "promptString", "id": "kimai-key", "description": "Kimai API key", "password": true },
  ],
  "servers": {
    "kimai": {
      "type": "stdio",
      "command": ${JSON.stringify(modern.command)},
      "args": ${JSON.stringify(modern.args)},
      "env": { "KIMAI_API_KEY": "\${input:kimai-key}" },
    },
    /* Would leave a marker file the moment it ran. */
    "marker": {
      "command": ${JSON.stringify(process.execPath)},
      "args": ["-e", ${JSON.stringify(`require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`)}],
    },
  },
}
`,
  );
  const { app, page, problems } = await suite.open({ settings: { theme: 'light', language: 'en' } });
  const serversFile = join(app.dataDir, 'servers.json');
  const saved = async () => JSON.parse(await readFile(serversFile, 'utf8')) as { mcpServers: Record<string, unknown> };
  const before = await readFile(serversFile, 'utf8');

  await page.getByRole('navigation').getByRole('button', { name: 'Servers', exact: true }).click();
  await page.setInputFiles('[data-testid="import-file"]', file);
  const review = page.getByRole('dialog', { name: 'Add servers from mcp.json?' });
  await review.waitFor();
  await expect.poll(() => review.evaluate((el) => el === document.activeElement)).toBe(true);
  expect(await review.locator('[data-server="kimai"] code').textContent()).toContain(modern.command);
  expect(await review.locator('[data-server="marker"] code').textContent()).toContain('writeFileSync');
  expect(await review.locator('[data-server="kimai"] a, [data-server="marker"] a').count()).toBe(0);
  await review.getByText('Environment variables (values hidden): KIMAI_API_KEY').waitFor();
  const key = review.getByLabel('Kimai API key');
  expect(await key.getAttribute('type')).toBe('password');
  expect(await key.getAttribute('autocomplete')).toBe('off');
  expect(await axe(page)).toEqual([]);

  // The dry run wrote nothing and started nothing.
  expect(await readFile(serversFile, 'utf8')).toBe(before);
  expect(existsSync(marker)).toBe(false);

  await key.fill(SECRET);
  await key.press('Enter');
  expect(await review.isVisible()).toBe(true);
  expect(existsSync(marker)).toBe(false);
  expect(await readFile(serversFile, 'utf8')).toBe(before);

  // Add ignores clicks for a moment after the dialog appears: confirmImport clicks until the dialog has gone.
  await confirmImport(page, 'Add 2 servers');

  await page
    .getByRole('status', { name: 'Import from mcp.json' })
    .getByText('Added 2 servers: kimai, marker.')
    .waitFor();
  const { mcpServers } = await saved();
  expect(mcpServers['kimai']).toEqual({
    type: 'stdio',
    command: modern.command,
    args: modern.args,
    env: { KIMAI_API_KEY: SECRET },
  });
  expect(Object.keys(mcpServers).sort()).toEqual(['kimai', 'marker']);
  // Now, and only now, the servers start: the marker appears and kimai connects with its key.
  await vi.waitFor(() => expect(existsSync(marker)).toBe(true), { timeout: 30_000 });
  await page.locator('.server-card[data-server="kimai"][data-status="connected"]').waitFor({ timeout: 30_000 });
  expect(await page.content()).not.toContain(SECRET);
  expect(problems).toEqual([]);
});
