// The method and event names of the host API, with no dependencies, so the
// sandboxed preload can build its bridge from them without bundling zod.
// `contract.ts` checks at compile time that these match its schemas.

/** Every request the renderer may make. */
export const HOST_METHOD_NAMES = [
  'listServers',
  'addServer',
  'updateServer',
  'removeServer',
  'importServers',
  'reconnectServer',
  'listCatalog',
  'callTool',
  'cancelCall',
  'listQuestions',
  'listSignIns',
  'answerQuestion',
  'openQuestionUrl',
  'muteServer',
  'queryHistory',
  'exportHistory',
  'verifyHistory',
  'getSettings',
  'updateSettings',
  'signIn',
  'signOut',
  'listTasks',
  'cancelTask',
  'openApp',
  'callAppTool',
  'recordAppEvent',
  'openAppLink',
  'closeApp',
  'listPasskeys',
  'registerPasskey',
  'revokePasskey',
  'openQuestionApp',
] as const;

/** Every event the host pushes. */
export const HOST_EVENT_NAMES = [
  'questionAdded',
  'signInAdded',
  'questionRemoved',
  'serversChanged',
  'serversFileProblem',
  'callUpdated',
  'historyAppended',
  'settingsChanged',
  'appAlert',
  'taskUpdated',
  'passkeysChanged',
] as const;

/** IPC channel for requests (Electron) — one channel, the method travels as data. */
export const INVOKE_CHANNEL = 'countersign:invoke';
/** IPC channel for events (Electron). */
export const EVENT_CHANNEL = 'countersign:event';
