import { describe, expect, it } from 'vitest';
import { HostApiError } from '../../../../shared/host-api/host-client';
import { fieldOfHostError } from './host-error-field';
import { emptyServerForm, entryFromForm, entrySummary, formFromEntry } from './server-form-model';

describe('server form model', () => {
  it('turns a stdio form into an entry: one argument per line (spaces kept), env lines, optional cwd', () => {
    const values = {
      ...emptyServerForm(),
      name: ' files ',
      command: ' npx ',
      args: '-y\n@scope/server files\n\n~/My Documents\r\n',
      env: 'A=1\nB=x=y\n',
      cwd: ' /tmp ',
    };
    expect(entryFromForm(values)).toEqual({
      ok: true,
      name: 'files',
      entry: {
        command: 'npx',
        args: ['-y', '@scope/server files', '~/My Documents'],
        env: { A: '1', B: 'x=y' },
        cwd: '/tmp',
      },
    });
  });

  it('turns an HTTP form into an entry with headers, keeping an explicit type', () => {
    const values = {
      ...emptyServerForm(),
      name: 'remote',
      transport: 'http' as const,
      url: 'https://mcp.example.com/mcp',
      headers: 'Authorization: Bearer a:b\nX-Trace:1',
      type: 'streamable-http',
    };
    expect(entryFromForm(values)).toEqual({
      ok: true,
      name: 'remote',
      entry: {
        type: 'streamable-http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer a:b', 'X-Trace': '1' },
      },
    });
  });

  it('names the fields a human must fix before anything is sent', () => {
    expect(entryFromForm({ ...emptyServerForm(), env: 'OK=1\nnot a pair' })).toEqual({
      ok: false,
      errors: {
        name: { key: 'servers.error.nameRequired' },
        command: { key: 'servers.error.commandRequired' },
        env: { key: 'servers.error.envLine', vars: { line: 2 } },
      },
    });
    expect(entryFromForm({ ...emptyServerForm(), name: 'x', transport: 'http', headers: ': no name' })).toEqual({
      ok: false,
      errors: {
        url: { key: 'servers.error.urlRequired' },
        headers: { key: 'servers.error.headerLine', vars: { line: 1 } },
      },
    });
  });

  it('round-trips an entry through the form', () => {
    const stdio = {
      type: 'stdio' as const,
      command: 'node',
      args: ['server.js', 'a b'],
      env: { TOKEN: 'x' },
      cwd: '/srv',
    };
    const back = entryFromForm(formFromEntry('s', stdio));
    expect(back).toEqual({ ok: true, name: 's', entry: stdio });
    const http = { url: 'http://127.0.0.1:3000/mcp', headers: { A: 'b' } };
    expect(entryFromForm(formFromEntry('h', http))).toEqual({ ok: true, name: 'h', entry: http });
  });

  it('keeps a "__proto__" env key as data', () => {
    const parsed = entryFromForm({ ...emptyServerForm(), name: 'x', command: 'c', env: '__proto__=1' });
    expect(parsed.ok && 'env' in parsed.entry && Object.keys(parsed.entry.env!)).toEqual(['__proto__']);
  });

  it('summarises an entry on one line, quoting parts with spaces', () => {
    expect(entrySummary({ command: 'npx', args: ['-y', 'a b'] })).toBe('npx -y "a b"');
    expect(entrySummary({ url: 'https://x.example/mcp' })).toBe('https://x.example/mcp');
  });
});

describe('fieldOfHostError', () => {
  const config = (field: string, problem: string) =>
    new HostApiError(`server "x": field "${field}" ${problem}`, 'config', { server: 'x', field, problem });
  const shape = (method: string, path: string, problem: string) =>
    new HostApiError(`${method}: invalid ${path}: ${problem}`, 'protocol', { method, path, problem });

  it("reads the field from the config rules' details", () => {
    expect(fieldOfHostError(config('url', 'must be http(s), not ftp:'))).toEqual({
      field: 'url',
      text: 'field "url" must be http(s), not ftp:',
    });
    expect(fieldOfHostError(config('env.A', 'must be a string'))).toMatchObject({ field: 'env' });
    expect(fieldOfHostError(config('args[2]', 'must be a string'))).toMatchObject({ field: 'args' });
    expect(fieldOfHostError(config('type', 'is "sse": not supported'))).toMatchObject({ field: 'transport' });
    expect(fieldOfHostError(config('(entry)', 'must be an object'))).toMatchObject({ field: null });
    expect(fieldOfHostError(config('constructor', 'x'))).toMatchObject({ field: null });
  });

  it('reads the field from the contract shape check and the name rules', () => {
    expect(fieldOfHostError(shape('addServer', 'entry.command', 'Too small'))).toEqual({
      field: 'command',
      text: 'Too small',
    });
    expect(fieldOfHostError(shape('updateServer', 'name', 'Too big'))).toEqual({ field: 'name', text: 'Too big' });
    expect(fieldOfHostError(shape('addServer', 'entry', 'Invalid input'))).toEqual({
      field: null,
      text: 'Invalid input',
    });
    const name = new HostApiError('server name "a/b" is invalid: use 1-64 letters', 'config', {
      server: 'a/b',
      field: 'name',
      problem: 'is invalid: use 1-64 letters',
    });
    expect(fieldOfHostError(name)).toEqual({ field: 'name', text: name.message });
  });

  it('never reads a field out of the sentence: no details, no field', () => {
    expect(fieldOfHostError(new Error('server "x": field "url" must be http(s)'))).toEqual({
      field: null,
      text: 'server "x": field "url" must be http(s)',
    });
    expect(fieldOfHostError(new HostApiError('the connection closed', 'connection'))).toEqual({
      field: null,
      text: 'the connection closed',
    });
  });
});
