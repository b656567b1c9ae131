// Variables in server entries are resolved at start, never stored resolved
// (issue 22, item 2): an imported server ran with BRAVE_API_KEY=${env:BRAVE_API_KEY}
// in its environment, and the import said it succeeded.
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { otherUser } from '../../../test/support/other-user';
import { openConnection } from '../connection/server-connection';
import { messageOf } from '../host-error';
import { missingValues, readEnvFile, resolveVariables, runnableEntry } from './variables';

const dir = mkdtempSync(join(tmpdir(), 'countersign-vars-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveVariables', () => {
  const sources = { env: { API_KEY: 'k-123', EMPTY: '' }, home: '/home/u' };

  it('fills ${env:NAME}, Claude Code ${NAME}, fallbacks and ${userHome} in every field that can hold them', () => {
    const entry = {
      command: '${userHome}/bin/srv',
      args: ['--key=${API_KEY}', '${env:MISSING:-dflt}', '${EMPTY:-was empty}'],
      env: { KEY: '${env:API_KEY}' },
      cwd: '${userHome}/work',
    };
    expect(resolveVariables('s', entry, sources)).toEqual({
      command: '/home/u/bin/srv',
      args: ['--key=k-123', 'dflt', 'was empty'],
      env: { KEY: 'k-123' },
      cwd: '/home/u/work',
    });
    const http = { url: 'https://h.example/${env:API_KEY}', headers: { Authorization: 'Bearer ${API_KEY}' } };
    expect(resolveVariables('h', http, sources)).toEqual({
      url: 'https://h.example/k-123',
      headers: { Authorization: 'Bearer k-123' },
    });
  });

  it('refuses to start with anything unresolved, naming each value, its field and why', () => {
    const entry = {
      command: 'srv',
      env: { A: '${env:NOPE}', B: '${input:brave-key}', C: '${workspaceFolder}', D: '${command:pick}' },
    };
    expect(missingValues(entry, sources).map((m) => `${m.field} ${m.placeholder}`)).toEqual([
      'env.A ${env:NOPE}',
      'env.B ${input:brave-key}',
      'env.C ${workspaceFolder}',
      'env.D ${command:pick}',
    ]);
    expect(() => resolveVariables('brave', entry, sources)).toThrow(
      /^server "brave" needs a value before it can start: \$\{env:NOPE\} in env\.A \(the environment variable NOPE is not set\)/,
    );
  });
});

describe('envFile', () => {
  it('is read at start under the entry’s own env, which wins', async () => {
    const file = join(dir, 'ok.env');
    writeFileSync(file, '# keys\nexport A=from-file\nB="two words"\n', { mode: 0o600 });
    const entry = { command: 'srv', env: { A: 'from-entry' }, envFile: file };
    expect(await runnableEntry('s', entry, { env: {} })).toEqual({
      command: 'srv',
      env: { A: 'from-entry', B: 'two words' },
    });
  });

  it('must be your own and not writable by others; a symlink is refused', async () => {
    const loose = join(dir, 'loose.env');
    writeFileSync(loose, 'A=1\n');
    chmodSync(loose, 0o666);
    await expect(readEnvFile('s', loose)).rejects.toThrow(/^server "s": envFile: refusing .*loose\.env/);
    expect(statSync(loose).mode & 0o777).toBe(0o666); // named by the user, outside the data folder: never chmod-ed
    const link = join(dir, 'link.env');
    symlinkSync(loose, link);
    await expect(readEnvFile('s', link)).rejects.toThrow(/is a symbolic link/);
    await expect(readEnvFile('s', join(dir, 'none.env'))).rejects.toThrow(/none\.env does not exist/);
  });

  it('owned by another user is refused', async (ctx) => {
    const other = otherUser();
    if (typeof other === 'string') return ctx.skip(other);
    const foreign = join(dir, 'foreign.env');
    writeFileSync(foreign, 'A=1\n', { mode: 0o644 });
    chownSync(foreign, other.uid, other.gid);
    await expect(readEnvFile('s', foreign)).rejects.toThrow(/^server "s": envFile: refusing .*foreign\.env/);
  });
});

describe('a server with an unresolved value', () => {
  it('is never started; with the value set it starts with the value, not the placeholder', async () => {
    const marker = join(dir, 'started');
    // A stand-in server that records the environment it got and exits (the connection then fails).
    const entry = {
      command: 'sh',
      args: ['-c', `printf %s "$TOKEN" > ${marker}; echo "token is $TOKEN" >&2; exit 3`],
      env: { TOKEN: '${env:CS_VARS_TEST}' },
    };
    delete process.env.CS_VARS_TEST;
    const refused = await openConnection('srv', entry, { timeoutMs: 5_000 }).catch((e: unknown) => messageOf(e));
    expect(refused).toMatch(/needs a value before it can start: \$\{env:CS_VARS_TEST\} in env\.TOKEN/);
    expect(existsSync(marker)).toBe(false);
    process.env.CS_VARS_TEST = 'real-value';
    let failure = '';
    try {
      failure = await openConnection('srv', entry, { timeoutMs: 5_000 }).then(
        () => '',
        (e: unknown) => messageOf(e),
      );
    } finally {
      delete process.env.CS_VARS_TEST;
    }
    expect(readFileSync(marker, 'utf8')).toBe('real-value');
    // Its stderr echoed the value it got: the error quotes the line with that value hidden, not the placeholder.
    expect(failure).toContain('token is ••••••');
    expect(failure).not.toContain('real-value');
  });
});
