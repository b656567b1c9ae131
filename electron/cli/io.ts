// The CLI's window on the world, injectable so commands run in-process in tests.
import { LINE_MAX, terminalText } from '../../shared/terminal-text';
import { writeTerminal, writeTerminalChunk } from '../core/terminal-output';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
  /** Aborts when the user interrupts (Ctrl-C). */
  signal?: AbortSignal;
}

/**
 * The real process streams. Everything printed goes through terminalText
 * (electron/core/terminal-output.ts): a server's escape sequences and bidi
 * overrides reach the terminal escaped, whichever command printed them.
 */
export function processIo(signal?: AbortSignal): CliIo {
  return {
    stdout: (t) => void writeTerminal('stdout', t),
    stderr: (t) => void writeTerminal('stderr', t),
    env: process.env,
    ...(signal ? { signal } : {}),
  };
}

/** Write to stdout (escaped as above) and wait while it is full, so a streamed export never piles up in memory. */
export function writeStdoutAsync(text: string): Promise<void> {
  return writeTerminalChunk('stdout', text);
}

/** The one-line error every command ends with; the message may quote a server or a file, so it is shown escaped. */
export function errorLine(message: string): string {
  // A host message may span lines (a server that failed to start: its command and last stderr lines). Each line is
  // escaped on its own, and every line after the first is indented, so no text in it can pose as a line of ours.
  const [first = '', ...rest] = message.split('\n');
  const more = rest.map((line) => {
    const safe = terminalText(line, { max: LINE_MAX });
    return safe.startsWith(' ') ? safe : `  ${safe}`;
  });
  return [`countersign: error: ${terminalText(first, { max: LINE_MAX })}`, ...more].join('\n');
}

/** A log sink for the long-running commands: each logged line stays one line on stderr. */
export function logTo(io: Pick<CliIo, 'stderr'>): (line: string) => void {
  return (line) => io.stderr(terminalText(line, { max: LINE_MAX }));
}
