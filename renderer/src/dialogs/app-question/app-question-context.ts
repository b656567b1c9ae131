import { createContext } from 'react';
import type { HostApi } from '../../../../shared/host-api/contract';

/**
 * What a question dialog needs to let an app draw a form (SEP-3118): the host API's app calls, and whether
 * Settings → App-drawn questions is on. Null where no app can be shown (the in-memory host, tests): native forms.
 */
export interface AppQuestions {
  api: Pick<HostApi, 'openQuestionApp' | 'recordAppEvent' | 'closeApp'>;
  enabled: boolean;
}

export const AppQuestionsContext = createContext<AppQuestions | null>(null);
