// Which form field a host error is about. The host names it in its messages
// (config rules: `server "x": field "command" must be ...`; the contract's
// shape check: `addServer: invalid entry.url: ...`; name rules), and the
// messages travel as text over every transport, so they are read from text.
import type { ServerFormField } from './server-form-model';

const ENTRY_FIELDS: Record<string, ServerFormField> = {
  command: 'command',
  args: 'args',
  env: 'env',
  cwd: 'cwd',
  url: 'url',
  headers: 'headers',
  type: 'transport',
};

function fieldOfPath(path: string): ServerFormField | null {
  const first = path.split(/[.[]/)[0] ?? '';
  return ENTRY_FIELDS[first] ?? null;
}

/** The field a host error names (null: about the whole form), and its text without the server-name prefix. */
export function fieldOfHostError(message: string): { field: ServerFormField | null; text: string } {
  const text = message.replace(/^server "[^"]*": /, '');
  const config = /(?:^|: )field "([^"]+)"/.exec(message);
  if (config) return { field: fieldOfPath(config[1]!), text };
  const shape = /^(?:addServer|updateServer): invalid (name|entry(?:\.([\w[\]]+))?)(?:\.[\w.[\]]*)?: (.*)$/s.exec(
    message,
  );
  if (shape) {
    const field = shape[1] === 'name' ? 'name' : shape[2] ? fieldOfPath(shape[2]) : null;
    return { field, text: shape[3]! };
  }
  if (/server name .* is invalid|a server named .* already exists/.test(message)) return { field: 'name', text };
  return { field: null, text };
}
