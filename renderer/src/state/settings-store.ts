// The host's settings as the renderer needs them (language, theme), fed by
// getSettings and the settingsChanged event. Pure: applying the theme to the
// document is the caller's job.
import type { HostApi, Settings } from '../../../shared/host-api/contract';
import { Store } from './store';

/** The subset of the HostApi the settings store uses. */
export type SettingsHostApi = Pick<HostApi, 'getSettings' | 'updateSettings' | 'on'>;

/** The state: settings once known. Before that (or if the host cannot tell), UI follows the system. */
export interface SettingsState {
  readonly settings: Settings | null;
}

/** An event-emitting store of the host settings. */
export class SettingsStore extends Store<SettingsState> {
  private off: (() => void) | null = null;

  constructor(private readonly api: SettingsHostApi) {
    super({ settings: null });
  }

  /** Listens for changes and loads the current settings; failure leaves system defaults. */
  async start(): Promise<void> {
    this.off = this.api.on('settingsChanged', (settings) => this.set({ settings }));
    try {
      this.set({ settings: await this.api.getSettings({}) });
    } catch {
      // No settings: the UI follows the system language and theme.
    }
  }

  stop(): void {
    this.off?.();
    this.off = null;
  }

  /** Changes settings on the host; the store follows the host's answer. */
  async update(patch: Partial<Settings>): Promise<void> {
    this.set({ settings: await this.api.updateSettings(patch) });
  }
}
