// The host's settings as the renderer needs them (language, theme), fed by
// getSettings and the settingsChanged event. Pure: applying the theme to the
// document is the caller's job.
import type { HostApi, Settings } from '../../../shared/host-api/contract';

/** The subset of the HostApi the settings store uses. */
export type SettingsHostApi = Pick<HostApi, 'getSettings' | 'updateSettings' | 'on'>;

/** The state: settings once known. Before that (or if the host cannot tell), UI follows the system. */
export interface SettingsState {
  readonly settings: Settings | null;
}

/** An event-emitting store of the host settings. */
export class SettingsStore {
  private state: SettingsState = { settings: null };
  private readonly listeners = new Set<() => void>();
  private off: (() => void) | null = null;

  constructor(private readonly api: SettingsHostApi) {}

  /** Listens for changes and loads the current settings; failure leaves system defaults. */
  async start(): Promise<void> {
    this.off = this.api.on('settingsChanged', (settings) => this.set(settings));
    try {
      this.set(await this.api.getSettings({}));
    } catch {
      // No settings: the UI follows the system language and theme.
    }
  }

  stop(): void {
    this.off?.();
    this.off = null;
  }

  getState = (): SettingsState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Changes settings on the host; the store follows the host's answer. */
  async update(patch: Partial<Settings>): Promise<void> {
    this.set(await this.api.updateSettings(patch));
  }

  private set(settings: Settings): void {
    this.state = { settings };
    for (const l of [...this.listeners]) l();
  }
}
