import { questionsWaiting, type QueueState } from '../state/question-queue';
import { useDeferredValue, useEffect, useMemo, useState, type ReactNode } from 'react';
import { AppQuestionsContext, type AppQuestions } from '../dialogs/app-question/app-question-context';
import QuestionLayer from '../dialogs/QuestionLayer';
import { PasskeySuggestionContext, type PasskeySuggestion } from '../dialogs/passkey-suggestion';
import { ArmDelayContext, DEFAULT_ARM_DELAY_MS } from '../dialogs/dialog-timing';
import { I18nProvider, useT } from '../i18n/i18n-context';
import { useStore, useStoreSelector, type ExternalStore } from '../state/use-store';
import HistoryView from '../views/history/HistoryView';
import ServersView from '../views/servers/ServersView';
import SettingsView from '../views/settings/SettingsView';
import TasksView from '../views/tasks/TasksView';
import ToolsView from '../views/tools/ToolsView';
import AppAlertBanner from './AppAlertBanner';
import ConnectionBanner, { type ConnectionView } from './ConnectionBanner';
import Sidebar from './Sidebar';
import type { RendererStores } from './stores';
import { useDocumentSettings, useUiLanguage } from './use-document-settings';
import { afterNextPaint } from './after-next-paint';
import type { ToolsSelection, ViewName } from './views';

/**
 * Props: the started stores; `armDelayMs` shortens the answer-button delay (tests, harness); `initialView` picks the
 * first view.
 */
export interface AppProps {
  stores: RendererStores;
  armDelayMs?: number;
  autoDismissNotesMs?: number;
  initialView?: ViewName;
  /** The web shell's connection state (absent under Electron, whose IPC cannot drop). */
  connection?: ExternalStore<ConnectionView>;
}

const NO_CONNECTION: ExternalStore<ConnectionView> = { subscribe: () => () => undefined, getState: () => undefined };

const waitingCount = (s: QueueState) => questionsWaiting(s.questions, s.drafts);
const loadErrorOf = (s: QueueState) => s.loadError;

/**
 * The app behind the dialogs: inert while questions wait, the sidebar with their count, the tab title. Only this
 * part re-renders when the count changes: `children` (the view) is the element App made, which React then skips,
 * so a question's arrival does not re-render the view behind its dialog (the dialog paints sooner).
 *
 * It follows the count one render behind the dialog (useDeferredValue): the dialog is drawn in the frame its
 * question arrives in, and the app's inertness (a restyle of everything behind) and the sidebar's count in the
 * next: the dialog's paint about 2 ms sooner (two builds measured side by side). Nothing behind can be reached in
 * between: the dialog took focus in its own render, Tab stays inside it, and its backdrop covers the app for the
 * pointer (test/browser/dialogs.test.ts, a question arriving while the person works in the app).
 */
function AppFrame({
  queue,
  view,
  onNavigate,
  children,
}: {
  queue: ExternalStore<QueueState>;
  view: ViewName;
  onNavigate: (view: ViewName) => void;
  children: ReactNode;
}) {
  const t = useT();
  const count = useDeferredValue(useStoreSelector(queue, waitingCount));
  const title = count > 0 ? `${t('app.title')} (${count})` : t('app.title');
  useEffect(() => {
    // The first title at once (a page without one is unnamed to assistive technology); a change of the count
    // once the frame it arrived in has painted.
    if (!document.title) document.title = title;
    else return afterNextPaint(() => void (document.title = title));
  }, [title]);
  return (
    <div className="app" inert={count > 0}>
      <Sidebar view={view} onNavigate={onNavigate} waiting={count} />
      {children}
    </div>
  );
}

/** The host could not list the waiting questions (under the provider: in the UI language). */
function HostErrorBanner({ error }: { error: string }) {
  const t = useT();
  return (
    <p className="banner banner-danger" role="alert">
      {t('app.hostError', { error })}
    </p>
  );
}

/** The renderer: a sidebar, the view picked in it, and question dialogs over everything (the rest inert meanwhile). */
export default function App({
  stores,
  armDelayMs = DEFAULT_ARM_DELAY_MS,
  autoDismissNotesMs,
  initialView = 'servers',
  connection = NO_CONNECTION,
}: AppProps) {
  const connectionState = useStore(connection);
  const { settings } = useStore(stores.settings);
  const loadError = useStoreSelector(stores.queue, loadErrorOf);
  const language = useUiLanguage(settings?.language);
  useDocumentSettings(language, settings?.theme);
  const [view, setView] = useState<ViewName>(initialView);
  const appQuestionsOn = settings?.appQuestions === true;
  const appQuestions = useMemo<AppQuestions>(
    () => ({ api: stores.api, enabled: appQuestionsOn }),
    [stores.api, appQuestionsOn],
  );
  const passkeys = settings?.passkeys;
  const offerPasskeys = passkeys !== undefined && passkeys.suggest && !passkeys.destructive && !passkeys.every;
  const passkeySuggestion = useMemo<PasskeySuggestion | null>(
    () =>
      offerPasskeys && passkeys
        ? {
            turnOn: () => void stores.settings.update({ passkeys: { ...passkeys, destructive: true, suggest: false } }),
            dismiss: () => void stores.settings.update({ passkeys: { ...passkeys, suggest: false } }),
          }
        : null,
    [offerPasskeys, passkeys, stores.settings],
  );
  const [tools, setTools] = useState<ToolsSelection>({ server: null, tool: null });
  const openTools = (server: string) => {
    setTools((s) => (s.server === server ? s : { server, tool: null }));
    setView('tools');
  };

  return (
    <I18nProvider language={language}>
      <ArmDelayContext.Provider value={armDelayMs}>
        <AppFrame queue={stores.queue} view={view} onNavigate={setView}>
          <main className="app-main" data-view={view}>
            <ConnectionBanner state={connectionState} />
            <AppAlertBanner api={stores.api} />
            {loadError && <HostErrorBanner error={loadError} />}
            {view === 'servers' && <ServersView stores={stores} onOpenTools={openTools} />}
            {view === 'tools' && (
              <ToolsView
                stores={stores}
                selection={tools}
                onSelect={setTools}
                onOpenServers={() => setView('servers')}
              />
            )}
            {view === 'history' && <HistoryView stores={stores} />}
            {view === 'tasks' && <TasksView stores={stores} />}
            {view === 'settings' && (
              <SettingsView settings={settings} onChange={(patch) => stores.settings.update(patch)} api={stores.api} />
            )}
          </main>
        </AppFrame>
        <AppQuestionsContext.Provider value={appQuestions}>
          <PasskeySuggestionContext.Provider value={passkeySuggestion}>
            <QuestionLayer queue={stores.queue} directory={stores.directory} autoDismissNotesMs={autoDismissNotesMs} />
          </PasskeySuggestionContext.Provider>
        </AppQuestionsContext.Provider>
      </ArmDelayContext.Provider>
    </I18nProvider>
  );
}
