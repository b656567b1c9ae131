// The settings a new user starts with, defined once: the host's settings file
// falls back to them key by key, and the renderer's in-memory host (tests, the
// harness) starts from the same values.
import type { Settings } from './host-api/contract';
import { DEFAULT_MAX_ROUNDS } from './round-limit';

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  maxRounds: DEFAULT_MAX_ROUNDS,
  language: 'system',
  theme: 'system',
  redactHistory: false,
  // No limit: no timer runs while a human decides.
  questionTimeLimitMinutes: 0,
  // Notification centres keep a history, and a server's text in system chrome is a spoofing surface.
  notificationDetail: 'names',
  // Off until the person turns it on; the first destructive question offers it.
  passkeys: Object.freeze({ destructive: false, every: false, chosen: [], suggest: true }),
  // Experimental (SEP-3118): an app draws a question's form only when the person turns it on.
  appQuestions: false,
});
