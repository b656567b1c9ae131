// Issue 24 item 3 (SEP-3118) in the core, against the real apps fixture over
// stdio: a form question whose elicitation names the server's app carries the
// hint to the front end; the app is opened for it only while Settings →
// App-drawn questions is on, only from the asking server, and gets no tool
// calls, links or model messages; the answer's history entry names the app
// only if it still drew the form when the person answered.
import { afterEach, describe, expect, it } from 'vitest';
import type { HostService } from '../../electron/core/service/host-service';
import { answeredEntry, askedBy, startQuestionService } from './app-question-service';
import { fixtureCommand } from '../fixtures/spawn-fixture';

const apps = fixtureCommand('apps');
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function start(rendersApps: boolean) {
  const started = await startQuestionService({ apps: { command: apps.command, args: apps.args } }, rendersApps);
  closers.push(started.close);
  return started.service;
}

const asked = (service: HostService) =>
  askedBy(service, { server: 'apps', tool: 'app_question', args: { app: 'form' } });
const answerEntry = async (service: HostService) => (await answeredEntry(service)).answer!;

describe('a question that names an app (SEP-3118)', () => {
  it('opens the app only with the setting on; the app may only draw; the answer names it', async () => {
    const service = await start(true);
    const question = await asked(service);
    expect(question.appForm).toEqual({ resourceUri: 'ui://apps-fixture/question-form.html' });
    await expect(service.invoke('openQuestionApp', { questionId: question.id })).rejects.toThrow(/off/);

    await service.invoke('updateSettings', { appQuestions: true });
    const { app } = await service.invoke('openQuestionApp', { questionId: question.id });
    expect(app).toMatchObject({ server: 'apps', resourceUri: 'ui://apps-fixture/question-form.html' });
    expect(app.documentUrl.startsWith('http://127.0.0.1:1/app/')).toBe(true);
    // Nothing an app of a tool may do: no tool calls, no links, nothing for a model.
    await expect(service.invoke('callAppTool', { appId: app.appId, tool: 'confirm_step', args: {} })).rejects.toThrow(
      /may not call tools/,
    );
    expect(await service.invoke('openAppLink', { appId: app.appId, url: 'https://example.com/' })).toEqual({
      opened: false,
      reason: "an app drawing a question's form may not open links",
    });
    await expect(service.invoke('recordAppEvent', { appId: app.appId, event: 'message', text: 'hi' })).rejects.toThrow(
      /sends nothing to record/,
    );

    await service.invoke('recordAppEvent', { appId: app.appId, event: 'question-drawn', text: '' });
    await service.invoke('answerQuestion', {
      questionId: question.id,
      answer: { action: 'accept', content: { size: 'M', note: 'from the app' } },
    });
    expect(await answerEntry(service)).toMatchObject({
      action: 'accept',
      content: { size: 'M', note: 'from the app' },
      drawnByApp: 'ui://apps-fixture/question-form.html',
    });
  });

  it('does not name the app when the native form took over', async () => {
    const service = await start(true);
    await service.invoke('updateSettings', { appQuestions: true });
    const question = await asked(service);
    const { app } = await service.invoke('openQuestionApp', { questionId: question.id });
    await service.invoke('recordAppEvent', { appId: app.appId, event: 'question-drawn', text: '' });
    await service.invoke('recordAppEvent', { appId: app.appId, event: 'question-fallback', text: 'bad values' });
    await service.invoke('answerQuestion', { questionId: question.id, answer: { action: 'decline' } });
    const answer = await answerEntry(service);
    expect(answer.action).toBe('decline');
    expect('drawnByApp' in answer).toBe(false);
  });

  it('is asked without the hint by a host that cannot draw apps (the server saw no ui.elicitation)', async () => {
    const service = await start(false);
    await service.invoke('updateSettings', { appQuestions: true });
    const question = await asked(service);
    expect(question.appForm).toBeUndefined();
    await expect(service.invoke('openQuestionApp', { questionId: question.id })).rejects.toThrow(
      /cannot show MCP Apps/,
    );
    await service.invoke('answerQuestion', { questionId: question.id, answer: { action: 'cancel' } });
  });
});
