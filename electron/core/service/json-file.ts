// Small JSON documents in the data folder, written atomically (temp file +
// rename) with owner-only permissions: server entries may carry tokens.
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseJsonText } from '../config/json-text';
import { readCheckedFile, writePrivateFile } from '../storage/private-files';

/** Read and parse a JSON file; undefined when it does not exist; a syntax error names the file, line and column. */
export async function readJsonFile(file: string): Promise<unknown> {
  const text = await readCheckedFile(file);
  return text === undefined ? undefined : parseJsonText(text, file);
}

/** Write JSON atomically. */
export async function writeJsonFile(file: string, value: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writePrivateFile(file, `${JSON.stringify(value, null, 2)}\n`);
}
