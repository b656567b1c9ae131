// One data folder's passkeys as a host uses them: the store (opened on first
// use), the ceremony server (started on first use, never by the CLI), the
// guard the question gate asks, and what Settings does with them (list,
// register, revoke). The app, its web shell and the CLI each make one; only
// the first two can show a ceremony page.
import type { PasskeyView } from '../../../shared/host-api/contract';
import type { ServerEntry } from '../../../shared/config/server-entry';
import { startCeremonyServer, type CeremonyServer } from './ceremony-server';
import { PasskeyGuard, type PasskeyPolicy } from './passkey-guard';
import { PasskeyStore, type PasskeyRecord } from './passkey-store';
import type { ServerIdentity } from './payload';

export interface PasskeysOptions {
  dataDir: string;
  /** Settings → Passkeys as it is now. */
  policy: () => PasskeyPolicy;
  /** The configured entry of a server, if this host knows it. */
  entry: (server: string) => ServerEntry | undefined;
  /** Whether a ceremony page can be shown here (the app and its web shell: yes; the CLI: no). */
  ceremonies: boolean;
  /** The ceremony server's port (0, the default: a free one). */
  port?: number;
}

/** How a server is named in a payload: its name plus the command it runs or the URL it is reached at. */
export function serverIdentity(name: string, entry: ServerEntry): ServerIdentity {
  if ('url' in entry && typeof entry.url === 'string') return { name, url: entry.url };
  const stdio = entry as { command: string; args?: string[] };
  const words = [stdio.command, ...(stdio.args ?? [])].map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : JSON.stringify(w)));
  return { name, command: words.join(' ') };
}

/** A passkey as Settings lists it: never its public key. */
export function passkeyView(p: PasskeyRecord): PasskeyView {
  return { id: p.id, name: p.name, created: p.created, ...(p.revoked ? { revoked: p.revoked } : {}) };
}

export class Passkeys {
  readonly guard: PasskeyGuard;
  private storeOpening?: Promise<PasskeyStore>;
  private ceremonyStarting?: Promise<CeremonyServer>;

  constructor(private readonly options: PasskeysOptions) {
    this.guard = new PasskeyGuard({
      policy: options.policy,
      store: () => this.store(),
      ...(options.ceremonies ? { ceremony: () => this.ceremony() } : {}),
      identity: (server) => {
        const entry = options.entry(server);
        return entry ? serverIdentity(server, entry) : undefined;
      },
    });
  }

  /** The data folder's store; a file that is not one is an error naming it (and is retried next time). */
  store(): Promise<PasskeyStore> {
    this.storeOpening ??= PasskeyStore.open(this.options.dataDir).catch((e: unknown) => {
      this.storeOpening = undefined;
      throw e;
    });
    return this.storeOpening;
  }

  /** The ceremony server, started on first use. */
  ceremony(): Promise<CeremonyServer> {
    if (!this.options.ceremonies) return Promise.reject(new Error('no ceremony page can be shown here'));
    this.ceremonyStarting ??= this.store().then((store) =>
      startCeremonyServer({ store, ...(this.options.port !== undefined ? { port: this.options.port } : {}) }),
    );
    this.ceremonyStarting.catch(() => (this.ceremonyStarting = undefined));
    return this.ceremonyStarting;
  }

  async list(): Promise<PasskeyView[]> {
    return (await this.store()).list().map(passkeyView);
  }

  /** Start registering a passkey named `name`: the page to open, and its outcome (the passkey, once stored). */
  async register(name: string): Promise<{ url: string; done: Promise<PasskeyRecord> }> {
    const ceremony = await (await this.ceremony()).register(name);
    return { url: ceremony.url, done: ceremony.result };
  }

  async revoke(id: string): Promise<PasskeyView[]> {
    const store = await this.store();
    await store.revoke(id);
    return store.list().map(passkeyView);
  }

  async close(): Promise<void> {
    const starting = this.ceremonyStarting;
    this.ceremonyStarting = undefined;
    await starting?.then((c) => c.close()).catch(() => undefined);
  }
}
