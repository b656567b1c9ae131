import { useEffect, useRef, useState } from 'react';
import type { FormQuestion } from '../../../../shared/elicitation/types';
import type { AppView } from '../../../../shared/host-api/contract';
import { useT } from '../../i18n/i18n-context';
import { errorText } from '../../state/store';
import { hostContextFor } from '../../views/tools/apps/host-context';
import type { AppQuestions } from './app-question-context';

/** Props: the question the app draws, the host's app calls, and what the dialog does with each outcome. */
export interface AppQuestionFrameProps {
  question: FormQuestion;
  api: AppQuestions['api'];
  /** The app started and took the question; `appId` is its id with the host. */
  onDrawn(appId: string): void;
  onReply(result: unknown): void;
  onFail(reason: string): void;
}

const MIN_HEIGHT = 120;
/** The frame stays well inside the dialog, so the dialog's own lines and buttons are never under it. */
const MAX_HEIGHT = 420;

/**
 * The server's app drawing a question's form: a sandboxed frame (scripts only, another origin) inside the
 * dialog's body, in a box that clips it. It sits between the dialog's own header (server, tool, agent, round) and
 * footer (the host's buttons); a frame cannot paint outside its box, and nothing it sends reaches those.
 */
export default function AppQuestionFrame({ question, api, onDrawn, onReply, onFail }: AppQuestionFrameProps) {
  const t = useT();
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [app, setApp] = useState<AppView | null>(null);
  const [height, setHeight] = useState(200);
  // The callbacks change with every render of the dialog; the bridge keeps the latest.
  const handlers = useRef({ onDrawn, onReply, onFail, t });
  handlers.current = { onDrawn, onReply, onFail, t };

  useEffect(() => {
    let live = true;
    let opened: AppView | undefined;
    api.openQuestionApp({ questionId: question.id }).then(
      ({ app: view }) => {
        opened = view;
        if (live) setApp(view);
        else void api.closeApp({ appId: view.appId }).catch(() => undefined);
      },
      (err: unknown) =>
        live && handlers.current.onFail(handlers.current.t('appQuestion.loadFailed', { error: errorText(err) })),
    );
    return () => {
      live = false;
      if (opened) void api.closeApp({ appId: opened.appId }).catch(() => undefined);
    };
    // The language may change meanwhile: the app is not opened again for it.
  }, [api, question.id]);

  useEffect(() => {
    const frame = frameRef.current;
    if (!app || !frame) return;
    let bridge: { close(): Promise<void> } | undefined;
    let gone = false;
    void import('../../views/tools/apps/question-bridge')
      .then(({ connectQuestionBridge }) =>
        connectQuestionBridge({
          app,
          frame,
          question,
          hostContext: hostContextFor(app),
          onDrawn: () => handlers.current.onDrawn(app.appId),
          onReply: (r) => handlers.current.onReply(r),
          onFail: (reason) => handlers.current.onFail(reason),
          onHeight: (h) => setHeight(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(h)))),
        }),
      )
      .then(
        (b) => {
          if (gone) return void b.close();
          bridge = b;
          frame.src = app.documentUrl;
        },
        (err: unknown) => handlers.current.onFail(errorText(err)),
      );
    return () => {
      gone = true;
      void bridge?.close();
    };
  }, [app, question]);

  return (
    <div className="app-question-box" data-testid="app-question-box">
      {app ? (
        <iframe
          ref={frameRef}
          className="app-question-frame"
          title={t('appQuestion.frameTitle', { server: question.origin.server })}
          // Scripts only: an opaque origin, no popups, no top navigation, no forms, no modals.
          sandbox="allow-scripts"
          referrerPolicy="no-referrer"
          style={{ height: `${height}px` }}
          data-testid="app-question-frame"
        />
      ) : (
        <p className="muted">{t('appQuestion.loading')}</p>
      )}
    </div>
  );
}
