// User settings, validated with the contract's schema; a damaged file falls
// back to defaults for the damaged keys only.
import { settingsSchema, type Settings } from '../../../shared/host-api/contract';
import { PrivateStorageError } from '../storage/private-files';
import { readJsonFile, writeJsonFile } from './json-file';
import { DEFAULT_SETTINGS } from '../../../shared/settings-defaults';

/** Load settings, keeping every valid key and defaulting the rest. */
export async function loadSettings(file: string): Promise<Settings> {
  let raw: unknown;
  try {
    raw = await readJsonFile(file);
  } catch (e) {
    // Someone else's file is refused like every other in the data folder; a malformed one means defaults.
    if (e instanceof PrivateStorageError) throw e;
    raw = undefined;
  }
  const out: Settings = { ...DEFAULT_SETTINGS };
  if (raw && typeof raw === 'object') {
    for (const key of Object.keys(DEFAULT_SETTINGS) as Array<keyof Settings>) {
      const candidate = { ...out, [key]: (raw as Record<string, unknown>)[key] };
      if (settingsSchema.safeParse(candidate).success) Object.assign(out, { [key]: candidate[key] });
    }
  }
  return out;
}

/** Persist settings. */
export function saveSettings(file: string, settings: Settings): Promise<void> {
  return writeJsonFile(file, settings);
}
