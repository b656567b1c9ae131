// Which form field a host error is about. The host says so in the error's
// `details` (shared/host-api/wire.ts WireError), which every transport
// carries: a server-config rule gives `field` and `problem`
// (electron/core/config/server-config.ts), the contract's shape check gives
// `path` and `problem` (shared/host-api/contract.ts). Nothing is read out of
// the sentence; an error without details is about the whole form.
import type { ServerFormField } from './server-form-model';

const ENTRY_FIELDS: Record<string, ServerFormField> = {
  name: 'name',
  command: 'command',
  args: 'args',
  env: 'env',
  cwd: 'cwd',
  url: 'url',
  headers: 'headers',
  type: 'transport',
};

/** The form field of a config path such as `env.A`, `args[2]` or `headers.X` (null: not one field). */
function fieldOfPath(path: string): ServerFormField | null {
  const first = path.split(/[.[]/)[0] ?? '';
  return Object.hasOwn(ENTRY_FIELDS, first) ? ENTRY_FIELDS[first]! : null;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The field a host error names (null: about the whole form), and the text to show there. */
export function fieldOfHostError(error: unknown): { field: ServerFormField | null; text: string } {
  const message = error instanceof Error ? error.message : String(error);
  const e = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; details?: unknown };
  const details = (typeof e.details === 'object' && e.details !== null ? e.details : {}) as Record<string, unknown>;
  const problem = text(details.problem);
  const configField = text(details.field);
  if (e.code === 'config' && configField !== undefined) {
    const field = fieldOfPath(configField);
    if (field === 'name') return { field, text: message };
    return { field, text: problem !== undefined ? `field "${configField}" ${problem}` : message };
  }
  const path = text(details.path);
  if (e.code === 'protocol' && path !== undefined && problem !== undefined) {
    // The shape check's path starts at the params: `name`, or `entry.<field>...`.
    const [head, ...rest] = path.split('.');
    if (head === 'name') return { field: 'name', text: problem };
    if (head === 'entry') return { field: rest.length > 0 ? fieldOfPath(rest.join('.')) : null, text: problem };
  }
  return { field: null, text: message };
}
