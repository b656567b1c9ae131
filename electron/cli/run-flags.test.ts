// The flag handling `web` and `gateway` share: a bad flag is exit 2 with the
// error and the usage on stderr, --help is exit 0 with the usage where the
// command says (the gateway's stdout is the MCP channel, so not there).
import { describe, expect, it } from 'vitest';
import { HostError } from '../core/host-error';
import type { CliIo } from './io';
import { parseCommandFlags, parsePort } from './run-flags';

function recording() {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env: {} };
  return { io, out, err };
}

describe('parseCommandFlags', () => {
  it('returns what the parser returned when there is no --help', () => {
    const { io, out, err } = recording();
    const flags = { values: { help: undefined }, port: 8 };
    expect(parseCommandFlags(io, 'usage: x', () => flags)).toBe(flags);
    expect([out, err]).toEqual([[], []]);
  });

  it('stops with exit 2 and the error then the usage on stderr for a bad flag', () => {
    const { io, out, err } = recording();
    const bad = () => {
      throw new HostError('config', '--port must be a port number');
    };
    expect(parseCommandFlags(io, 'usage: x', bad)).toBe(2);
    expect(err).toEqual(['countersign: error: --port must be a port number\nusage: x']);
    expect(out).toEqual([]);
  });

  it('stops with exit 0 and the usage on stdout for --help, or on stderr when told', () => {
    const help = () => ({ values: { help: true } });
    const a = recording();
    expect(parseCommandFlags(a.io, 'usage: x', help)).toBe(0);
    expect([a.out, a.err]).toEqual([['usage: x'], []]);
    const b = recording();
    expect(parseCommandFlags(b.io, 'usage: x', help, 'stderr')).toBe(0);
    expect([b.out, b.err]).toEqual([[], ['usage: x']]);
  });
});

describe('parsePort', () => {
  it('is 0 when absent and refuses what is not a port', () => {
    expect(parsePort(undefined)).toBe(0);
    expect(parsePort('8123')).toBe(8123);
    for (const bad of ['70000', '-1', '1.5', 'x', '']) expect(() => parsePort(bad)).toThrow(/--port must be/);
  });
});
