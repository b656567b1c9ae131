// The host service the app-drawn question tests (SEP-3118) run against: real
// fixture servers over stdio, a real journal, and, where it renders apps, the
// app origin a front end would set. Shared by app-questions.test.ts and
// app-questions-paths.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FormQuestion } from '../../shared/elicitation/types';
import { HostService } from '../../electron/core/service/host-service';
import { JournalHistory } from '../../electron/core/service/journal-history';

/** The service on `servers`; `close` ends it and removes its data folder. */
export async function startQuestionService(
  servers: Record<string, { command: string; args: string[] }>,
  rendersApps: boolean,
): Promise<{ service: HostService; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'countersign-app-questions-'));
  const history = await JournalHistory.open(join(dataDir, 'history'));
  const service = await HostService.create({
    dataDir,
    history,
    openExternal: async () => undefined,
    firstStartServers: servers,
    watchConfig: false,
    ...(rendersApps ? { rendersApps: true } : {}),
  });
  service.log = () => undefined;
  if (rendersApps)
    service.apps.origin = { documentBase: 'http://127.0.0.1:1/app/', frameAncestor: 'http://127.0.0.1:2' };
  return {
    service,
    close: async () => {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Calls the tool (not awaited: it waits for the answer) and returns the form question it asks. */
export async function askedBy(
  service: HostService,
  call: { server: string; tool: string; args: Record<string, unknown> },
): Promise<FormQuestion> {
  void service.invoke('callTool', call);
  for (let i = 0; i < 500; i++) {
    const [question] = await service.invoke('listQuestions', {});
    if (question) return question as FormQuestion;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('no question came');
}

/** The question's history entry once its answer is recorded and its call has ended. */
export async function answeredEntry(service: HostService) {
  for (let i = 0; i < 500; i++) {
    const { entries } = await service.invoke('queryHistory', { mode: 'question' });
    const item = entries.find((e) => e.kind === 'question');
    if (item?.kind === 'question' && item.callEnd && item.answer) return item;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('no answer was recorded');
}
