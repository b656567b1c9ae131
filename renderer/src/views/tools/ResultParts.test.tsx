// The one drawing of a tool result, shared by the Tools view's call cards and
// the Tasks view's finished tasks: tested on its own and through the Tasks
// view, which had its own copy (without the folded metadata or the empty note).
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TaskView } from '../../../../shared/host-api/contract';
import { renderApp } from '../../testing/render-app';
import { describeResult } from './call-result';
import ResultParts from './ResultParts';

describe('ResultParts', () => {
  it('draws text as text, other content as labelled JSON, and protocol metadata folded away', () => {
    const described = describeResult({
      content: [
        { type: 'text', text: 'deployed' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
      _meta: { trace: 'abc' },
    });
    render(<ResultParts described={described} testId="the-result" />);
    const box = screen.getByTestId('the-result');
    expect(box.querySelector('pre.result-text')?.textContent).toBe('deployed');
    const json = box.querySelector('div.result-json');
    expect(json?.querySelector('.result-label')?.textContent).toBe('image');
    expect(json?.querySelector('pre')?.textContent).toContain('"mimeType": "image/png"');
    const extra = box.querySelector('details.result-extra') as HTMLDetailsElement | null;
    expect(extra?.open).toBe(false);
    expect(extra?.querySelector('summary')?.textContent).toBe('Metadata: _meta');
    expect(extra?.querySelector('pre')?.textContent).toContain('"trace": "abc"');
    expect(box.textContent).not.toContain('The tool reported an error');
  });

  it('marks a tool error and its text as such', () => {
    render(
      <ResultParts
        described={describeResult({ content: [{ type: 'text', text: 'nope' }], isError: true })}
        testId="r"
      />,
    );
    const box = screen.getByTestId('r');
    expect(box.querySelector('.banner-danger')?.textContent).toBe('The tool reported an error:');
    expect(box.querySelector('pre.result-text.result-error')?.textContent).toBe('nope');
  });

  it('says so when the tool returned no content', () => {
    render(<ResultParts described={describeResult({ content: [] })} testId="r" />);
    expect(screen.getByTestId('r').textContent).toBe('The tool returned no content.');
  });
});

const finishedTask = (result: TaskView['result']): TaskView => ({
  taskId: '4f2a9c81-aaaa-4000-8000-000000000002',
  server: 'ci',
  tool: 'deploy',
  status: 'completed',
  startedAt: new Date(Date.now() - 60_000).toISOString(),
  lastUpdatedAt: new Date().toISOString(),
  endedAt: new Date().toISOString(),
  running: false,
  result,
});

describe('the Tasks view draws a finished task result with ResultParts', () => {
  it('folds protocol metadata away, as the Tools view does', async () => {
    await renderApp({
      view: 'tasks',
      tasks: [finishedTask({ content: [{ type: 'text', text: 'Deployed.' }], _meta: { trace: 'abc' } })],
    });
    const box = await screen.findByTestId('task-result');
    expect(box.querySelector('pre.result-text')?.textContent).toBe('Deployed.');
    expect(box.querySelector('details.result-extra summary')?.textContent).toBe('Metadata: _meta');
  });

  it('says so when a task returned no content', async () => {
    await renderApp({ view: 'tasks', tasks: [finishedTask({ content: [] })] });
    expect((await screen.findByTestId('task-result')).textContent).toBe('The tool returned no content.');
  });
});
