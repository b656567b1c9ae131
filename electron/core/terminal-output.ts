// The one place Countersign's own processes (CLI, gateway, web shell, the
// core's default loggers) write to their stdout and stderr. Whatever is
// written goes through terminalText first, so a server's text cannot reach
// the terminal as escape sequences or bidi overrides, whichever print site it
// came through (a lint rule keeps other code off process.stdout/stderr).
import { terminalText } from '../../shared/terminal-text';

/** The two streams a terminal shows. */
export type TerminalStream = 'stdout' | 'stderr';

/**
 * Write `text` (lines kept, everything else escaped) to the stream, adding
 * the final newline when missing; returns false when the stream's buffer is
 * full (wait for 'drain').
 */
export function writeTerminal(stream: TerminalStream, text: string): boolean {
  const safe = terminalText(text, { multiline: true, max: Infinity });
  const out = stream === 'stdout' ? process.stdout : process.stderr;
  return out.write(safe.endsWith('\n') ? safe : `${safe}\n`);
}

/** Write a chunk of a stream as it is split (no newline added), escaped; resolves once the stream took it. */
export function writeTerminalChunk(stream: TerminalStream, chunk: string): Promise<void> {
  const out = stream === 'stdout' ? process.stdout : process.stderr;
  const safe = terminalText(chunk, { multiline: true, max: Infinity });
  return new Promise((resolve, reject) => {
    if (out.write(safe)) return resolve();
    const onError = (error: Error) => reject(error);
    out.once('error', onError);
    out.once('drain', () => {
      out.off('error', onError);
      resolve();
    });
  });
}

/** A log sink: each line one line on stderr (a line break inside it is shown escaped, never starts a line). */
export function stderrLog(line: string): void {
  writeTerminal('stderr', terminalText(line, { max: Infinity }));
}
