// Which app the gateway may hand questions to when the agent runs as its
// own OS user (issue 9, item 4): `--approver USER --approval-dir DIR`, or
// the same as "approver" and "approvalDir" in DATA/gateway.json. The flags
// win. The check itself is core/approval/shared-folder.ts.
import { isAbsolute, join, resolve } from 'node:path';
import { HostError } from '../core/host-error';
import { userId, type Approver } from '../core/approval/shared-folder';
import { readCheckedFileSync } from '../core/storage/private-files';

/** The gateway's own config file in its data folder. */
export const GATEWAY_CONFIG_FILE = 'gateway.json';

export interface ApproverChoice {
  approver: Approver;
  approvalDir: string;
}

function readConfig(dataDir: string): { approver?: string; approvalDir?: string } {
  const file = join(dataDir, GATEWAY_CONFIG_FILE);
  let text: string | undefined;
  try {
    text = readCheckedFileSync(file);
  } catch (e) {
    if (e instanceof HostError) throw e;
    throw new HostError('config', `cannot read ${file}: ${(e as Error).message}`);
  }
  if (text === undefined) return {};
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new HostError('config', `${file} is not JSON: ${(e as Error).message}`);
  }
  const { approver, approvalDir } = (doc ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries({ approver, approvalDir }))
    if (value !== undefined && (typeof value !== 'string' || value === ''))
      throw new HostError('config', `${file}: "${key}" must be a non-empty string`);
  return {
    ...(typeof approver === 'string' ? { approver } : {}),
    ...(typeof approvalDir === 'string' ? { approvalDir } : {}),
  };
}

/** The approver and folder from the flags or DATA/gateway.json; undefined when neither names one. */
export function approverChoice(
  dataDir: string,
  flags: { approver?: string; approvalDir?: string },
): ApproverChoice | undefined {
  const config = readConfig(dataDir);
  const name = flags.approver ?? config.approver;
  const dir = flags.approvalDir ?? config.approvalDir;
  if (name === undefined && dir === undefined) return undefined;
  if (name === undefined)
    throw new HostError(
      'config',
      '--approval-dir needs --approver USER: the gateway must know whose socket it may trust (see docs/agents.md)',
    );
  if (dir === undefined)
    throw new HostError(
      'config',
      `--approver needs --approval-dir DIR: the folder ${name}'s Countersign app shares its socket in ` +
        '(approval-share.json; see docs/agents.md)',
    );
  if (!isAbsolute(dir)) throw new HostError('config', `--approval-dir must be an absolute path, not ${dir}`);
  let uid: number;
  try {
    uid = userId(name);
  } catch (e) {
    throw new HostError('config', `--approver: ${(e as Error).message}`);
  }
  return { approver: { name, uid }, approvalDir: resolve(dir) };
}
