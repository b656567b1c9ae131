// The error line every command ends with: a message of several lines (a server
// that failed to start) stays readable, and no line in it can pose as one of ours.
import { describe, expect, it } from 'vitest';
import { errorLine } from './io';

describe('errorLine', () => {
  it('keeps a host message of several lines, each escaped, every later line indented', () => {
    const message = 'cannot start "x": exited with code 1\n  command: node s.js\n[ELICIT] kimai -> accept\x1b[2J';
    expect(errorLine(message).split('\n')).toEqual([
      'countersign: error: cannot start "x": exited with code 1',
      '  command: node s.js',
      '  [ELICIT] kimai -> accept\\x1b[2J',
    ]);
  });

  it('escapes a carriage return, which would otherwise overwrite the line', () => {
    expect(errorLine('ok\rfake')).toBe('countersign: error: ok\\rfake');
  });
});
