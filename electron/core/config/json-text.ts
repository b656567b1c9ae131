// JSON parsing whose syntax errors say where: "servers.json:3:5: not valid
// JSON: Expected ',' or '}' after property value". Node 20's JSON.parse names
// only a character offset ("at position 58"), which nobody can find in an
// editor; every file the host reads (servers.json, settings, imported configs)
// goes through here so they all report the same way.
import { HostError } from '../host-error';

/** Line and column (both 1-based) of a character offset in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  const end = Math.max(0, Math.min(offset, text.length));
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: end - start + 1 };
}

/** Where JSON.parse failed, from its message (Node 20: "at position N"; Node 22: "(line L column C)"). */
function failurePosition(text: string, message: string): { line: number; column: number } {
  const lc = /\(line (\d+) column (\d+)\)/.exec(message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /at position (\d+)/.exec(message);
  if (pos) return lineColumn(text, Number(pos[1]));
  // "Unexpected end of JSON input" and the like: the end of the text.
  return lineColumn(text, text.length);
}

/** JSON.parse; a syntax error becomes a config error naming `source`, line and column. */
export function parseJsonText(text: string, source: string): unknown {
  try {
    // A byte-order mark (Windows editors) is not JSON, but it is not the user's mistake either.
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    const raw = (e as Error).message;
    const { line, column } = failurePosition(text, raw);
    const reason = raw
      .replace(/\s*\(line \d+ column \d+\)/, '')
      .replace(/\s*in JSON at position \d+/, '')
      .replace(/\s*at position \d+/, '');
    throw new HostError('config', `${source}:${line}:${column}: not valid JSON: ${reason}`);
  }
}
