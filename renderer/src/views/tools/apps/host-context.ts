// What the host tells an app about where it is drawn (ext-apps McpUiHostContext):
// the theme and language the window shows now, inline display only, and the
// tool it belongs to. Read from the document, so it follows Settings.
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppView } from '../../../../../shared/host-api/contract';

/** The tallest an app is drawn; past this it scrolls inside its frame. */
export const MAX_APP_HEIGHT = 800;

/** The theme the document shows (data-theme, else the system's). */
function currentTheme(): 'light' | 'dark' {
  const set = document.documentElement.dataset.theme;
  if (set === 'light' || set === 'dark') return set;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** The context for one app's frame. */
export function hostContextFor(app: AppView): McpUiHostContext {
  return {
    theme: currentTheme(),
    locale: document.documentElement.lang || navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    displayMode: 'inline',
    availableDisplayModes: ['inline'],
    containerDimensions: { maxHeight: MAX_APP_HEIGHT },
    platform: 'desktop',
    toolInfo: {
      tool: {
        name: app.tool.name,
        ...(app.tool.title ? { title: app.tool.title } : {}),
        ...(app.tool.description ? { description: app.tool.description } : {}),
        inputSchema: app.tool.inputSchema as { type: 'object' },
      },
    },
  };
}
