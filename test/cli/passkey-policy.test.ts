// Settings → Passkeys holds for scripts: an accept that needs the person's
// passkey cannot come from `--elicit accept` or a test script. Against the
// real modern fixture (its confirm_delete is marked destructiveHint), with a
// data folder whose settings ask for a passkey on destructive tools.
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PasskeyStore } from '../../electron/core/passkeys/passkey-store';
import { DEFAULT_SETTINGS } from '../../shared/settings-defaults';
import { fixtureCommandLine } from '../fixtures/spawn-fixture';
import { runCliIn } from '../support/cli';

const modern = fixtureCommandLine('modern');

/** A data folder whose Settings → Passkeys are `passkeys`, with `keys` registered passkeys (public keys only). */
async function dataDir(passkeys: Partial<typeof DEFAULT_SETTINGS.passkeys>, keys: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'cs-passkey-'));
  writeFileSync(
    join(dir, 'settings.json'),
    JSON.stringify({ ...DEFAULT_SETTINGS, passkeys: { ...DEFAULT_SETTINGS.passkeys, ...passkeys } }),
    { mode: 0o600 },
  );
  const store = await PasskeyStore.open(dir);
  for (let i = 0; i < keys; i++)
    await store.add({
      name: `key ${i}`,
      id: `credential${i}`,
      publicKey: 'cHVibGlj',
      counter: 0,
      created: '2026-12-07T00:00:00.000Z',
    });
  return dir;
}

/** The answer entries of the data folder's history. */
function answers(dir: string): Array<Record<string, any>> {
  const folder = join(dir, 'history');
  return readdirSync(folder)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(join(folder, f), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as Record<string, any>)
    .filter((e) => e.body?.kind === 'answer' || e.kind === 'answer');
}

const call = (dir: string, ...extra: string[]) =>
  runCliIn(dir, ['call', '--stdio', modern, '--tool', 'confirm_delete', '--args', '{"entryId":4}', ...extra]);

describe('a script cannot stand in for the passkey', () => {
  it('--elicit accept on a destructive tool ends with exit 2, naming why, and nothing is deleted', async () => {
    const dir = await dataDir({ destructive: true }, 1);
    const r = await call(dir, '--elicit', 'accept');
    expect(r.code).toBe(2);
    const err = r.stderr.join('\n');
    expect(err).toContain("this accept needs the person's passkey");
    expect(err).toContain('the server marks this tool destructive');
    expect(r.stdout.join('\n')).not.toContain('deleted entry 4');
  });

  it('decline needs no passkey', async () => {
    const dir = await dataDir({ destructive: true }, 1);
    const r = await call(dir, '--elicit', 'decline');
    expect(r.code).toBe(0);
    expect(r.stdout.join('\n')).not.toContain('deleted entry 4');
  });

  it('every accept (Settings → Passkeys) covers a tool the server does not mark', async () => {
    const dir = await dataDir({ every: true }, 1);
    const r = await runCliIn(dir, [
      'call',
      '--stdio',
      modern,
      '--tool',
      'two_rounds',
      '--elicit',
      'accept:{"name":"Ada"}',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.join('\n')).toContain('every accept');
  });

  it('a chosen server covers its tools; another server is not touched', async () => {
    const chosen = await dataDir({ chosen: [{ server: 'kimai' }] }, 1);
    const refused = await call(chosen, '--name', 'kimai', '--elicit', 'accept');
    expect(refused.code).toBe(2);
    expect(refused.stderr.join('\n')).toContain('for server "kimai"');
    const other = await call(chosen, '--name', 'other', '--elicit', 'accept');
    expect(other.code).toBe(0);
    expect(other.stdout.join('\n')).toContain('deleted entry 4');
  });

  it('with no passkey registered the plain Accept goes out, and the history records it as that fallback', async () => {
    const dir = await dataDir({ destructive: true }, 0);
    const r = await call(dir, '--elicit', 'accept');
    expect(r.code).toBe(0);
    expect(r.stdout.join('\n')).toContain('deleted entry 4');
    const [answer] = answers(dir);
    const body = answer!.body ?? answer;
    expect(body.passkey).toMatchObject({ status: 'fallback', reason: expect.stringContaining('destructive') });
    expect(body.passkey.detail).toContain('no passkey is registered');
  });

  it('policy off: nothing changes, and the history says nothing of passkeys', async () => {
    const dir = await dataDir({}, 1);
    const r = await call(dir, '--elicit', 'accept');
    expect(r.code).toBe(0);
    const [answer] = answers(dir);
    expect((answer!.body ?? answer).passkey).toBeUndefined();
  });

  it('countersign test says so at the step, and assert_host_error passkey-needed passes', async () => {
    const dir = await dataDir({ destructive: true }, 1);
    const script = join(dir, 'case.mcp');
    writeFileSync(
      script,
      'elicit_response accept\ncall_tool confirm_delete entryId:3\nassert_host_error passkey-needed\n\n' +
        'elicit_response accept\ncall_tool confirm_delete entryId:3\nassert_contains "deleted entry 3"\n',
    );
    const r = await runCliIn(dir, ['test', script, '--stdio', modern, '--era', 'modern']);
    expect(r.code).toBe(1);
    const out = r.stdout.join('\n');
    expect(out).toMatch(/ {4}3 pass {2}assert_host_error passkey-needed/);
    expect(out).toMatch(/ {4}6 FAIL {2}assert_contains "deleted entry 3"\n.*passkey/);
  });
});
