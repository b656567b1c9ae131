import { describe, expect, it } from 'vitest';
import { commandForDisplay, describeServerFailure, STDERR_TAIL, stderrTail, targetOf } from './server-failure';

describe('commandForDisplay', () => {
  it('hides secret-looking values, configured env values and URL credentials; quotes words with spaces', () => {
    expect(
      commandForDisplay(
        'npx',
        ['-y', 'srv', '--token', 't0k3n-value', '--password=hunter22', 'ghp_abcdef', 'a b', '--port', '8080'],
        {},
      ),
    ).toBe('npx -y srv --token •••••• --password=•••••• •••••• "a b" --port 8080');
    expect(commandForDisplay('srv', ['--db', 'postgres://me:s3cret@db/x?api_key=k&x=1'])).toBe(
      'srv --db postgres://me:••••••@db/x?api_key=••••••&x=1',
    );
    expect(commandForDisplay('srv', ['--conn', 'host=x;key=VERYSECRET1'], { DB_KEY: 'VERYSECRET1' })).toBe(
      'srv --conn host=x;key=••••••',
    );
  });

  it('shows an HTTP target with its password hidden', () => {
    expect(targetOf({ url: 'https://u:pw123@example.com/mcp' })).toEqual({
      kind: 'url',
      text: 'https://u:••••••@example.com/mcp',
    });
  });
});

describe('stderrTail', () => {
  it('keeps plain text: no escape sequences, no control characters, no configured secrets', () => {
    expect(
      stderrTail(['\u001b[31mred\u001b[0m alert\u0007', 'fake\rline \u202eevil', 'key is abcdef123'], {
        K: 'abcdef123',
      }),
    ).toEqual(['red alert', 'fake line  evil', 'key is ••••••']);
  });

  it('is bounded in lines, characters per line and characters in all, keeping the end', () => {
    const many = Array.from({ length: 50 }, (_, i) => `line ${i}`);
    expect(stderrTail(many)).toEqual(many.slice(-STDERR_TAIL.lines));
    const long = stderrTail(['x'.repeat(5000)]);
    expect(long[0]!.length).toBe(STDERR_TAIL.lineChars);
    const wide = stderrTail(Array.from({ length: 10 }, (_, i) => `${i}`.repeat(290)));
    expect(wide.join('\n').length).toBeLessThanOrEqual(STDERR_TAIL.chars);
    expect(wide.at(-1)).toBe('9'.repeat(290));
  });

  it('folds a run of stack frames into its first, so the error line stays in the tail', () => {
    const frames = Array.from({ length: 20 }, (_, i) => `    at frame${i} (file.js:${i})`);
    expect(stderrTail(['Error: boom', ...frames, 'Node.js v22'])).toEqual([
      'Error: boom',
      '    at frame0 (file.js:0)',
      '    … 19 more stack lines',
      'Node.js v22',
    ]);
  });
});

describe('describeServerFailure', () => {
  it('an HTTP failure is one line; a stdio one adds the command and the stderr lines', () => {
    expect(
      describeServerFailure('r', {
        reason: 'nothing is listening at http://x/mcp (connection refused)',
        target: { kind: 'url', text: 'http://x/mcp' },
        stderr: [],
      }),
    ).toBe('cannot connect to "r": nothing is listening at http://x/mcp (connection refused)');
    expect(
      describeServerFailure('s', {
        reason: 'the server exited with code 2 before it answered',
        target: { kind: 'command', text: 'srv --x' },
        stderr: ['oops'],
      }),
    ).toBe(
      'cannot start "s": the server exited with code 2 before it answered\n' +
        '  command: srv --x\n  its last line on stderr:\n    oops',
    );
  });
});
