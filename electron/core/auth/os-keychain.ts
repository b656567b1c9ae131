// The OS keychain, for one secret: the random key that encrypts the
// credential store (credentials/oauth.json). macOS: the login Keychain;
// Windows: the Credential Manager; Linux: the Secret Service over D-Bus
// (GNOME Keyring, KWallet, KeePassXC ...). Through @napi-rs/keyring, a
// Node-API binding with prebuilt binaries: the same module loads in Node (the
// CLI, the gateway) and in Electron's main process without a rebuild, so the
// app, the CLI and the gateway can all open the one shared store.
//
// On Linux the entry is pinned to the Secret Service. The library would
// otherwise fall back to the kernel keyring (keyutils), which lives in
// memory only and per login session: the key would be gone after a reboot,
// or invisible to a gateway started from another session, and the tokens
// with it. Without a Secret Service the store stays a plain 0600 file, and
// says so.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** A keychain that keeps one key. */
export interface KeyVault {
  /** Which keychain, in plain words (shown in `auth status` and the Servers view). */
  readonly name: string;
  /** The stored key; undefined when none is stored. Throws KeychainUnavailableError when out of reach. */
  readKey(): Promise<Buffer | undefined>;
  writeKey(key: Buffer): Promise<void>;
  /** True when a key was deleted. */
  deleteKey(): Promise<boolean>;
}

/** The keychain cannot be reached from this process (no D-Bus session, locked, no service). */
export class KeychainUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`the OS keychain cannot be reached: ${reason}`);
    this.name = 'KeychainUnavailableError';
  }
}

type KeyringModule = typeof import('@napi-rs/keyring');

/** Where the Node-API binding is: next to the bundle (the packaged app, dist/), else the npm package. */
function loadKeyring(): KeyringModule | string {
  const req = createRequire(import.meta.url);
  const triple = platformTriple();
  const candidates = [
    // scripts/build.mjs copies the platform's binary here for the bundles.
    ...(triple ? [fileURLToPath(new URL(`./native/keyring.${triple}.node`, import.meta.url))] : []),
    '@napi-rs/keyring',
  ];
  const errors: string[] = [];
  for (const id of candidates) {
    try {
      return req(id) as KeyringModule;
    } catch (e) {
      errors.push(e instanceof Error ? e.message.split('\n')[0]! : String(e));
    }
  }
  return `the keychain library did not load (${errors.at(-1) ?? 'unknown reason'})`;
}

/** The suffix @napi-rs/keyring names its binaries with, for this platform. */
export function platformTriple(): string | undefined {
  const { platform, arch } = process;
  if (platform === 'darwin') return `darwin-${arch}`;
  if (platform === 'win32') return `win32-${arch}-msvc`;
  if (platform === 'linux') {
    const glibc = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header
      ?.glibcVersionRuntime;
    return `linux-${arch}-${glibc ? 'gnu' : 'musl'}`;
  }
  return undefined;
}

let keyring: KeyringModule | string | undefined;

function keychainName(): string {
  if (process.platform === 'darwin') return 'the macOS Keychain';
  if (process.platform === 'win32') return 'the Windows Credential Manager';
  return 'the Secret Service keyring (D-Bus)';
}

const SERVICE = 'Countersign';

/**
 * The OS keychain entry for the key of the credential store in `folder`
 * (one entry per data folder, named after it, so two data folders never
 * share a key).
 */
export class OsKeychain implements KeyVault {
  readonly name = keychainName();
  constructor(private readonly folder: string) {}

  private entry() {
    keyring ??= loadKeyring();
    if (typeof keyring === 'string') throw new KeychainUnavailableError(keyring);
    try {
      return new keyring.AsyncEntry(
        SERVICE,
        `credentials key for ${this.folder}`,
        process.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined,
      );
    } catch (e) {
      throw new KeychainUnavailableError(reason(e));
    }
  }

  async readKey(): Promise<Buffer | undefined> {
    const entry = this.entry();
    let value: string | null;
    try {
      value = await entry.getPassword();
    } catch (e) {
      throw new KeychainUnavailableError(reason(e));
    }
    if (value === null || value === undefined) return undefined;
    const key = Buffer.from(value, 'base64');
    return key.length === 32 ? key : undefined;
  }

  async writeKey(key: Buffer): Promise<void> {
    try {
      await this.entry().setPassword(key.toString('base64'));
    } catch (e) {
      throw e instanceof KeychainUnavailableError ? e : new KeychainUnavailableError(reason(e));
    }
  }

  async deleteKey(): Promise<boolean> {
    try {
      return await this.entry().deleteCredential();
    } catch (e) {
      throw e instanceof KeychainUnavailableError ? e : new KeychainUnavailableError(reason(e));
    }
  }
}

/** The library's message, first line (it names the cause: "set your DBUS_SESSION_BUS_ADDRESS", "AccessDenied" ...). */
function reason(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!.trim() || 'no reason given';
}
