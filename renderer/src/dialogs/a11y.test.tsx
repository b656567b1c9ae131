// axe-core over every dialog kind in jsdom (colour contrast is checked in
// Chromium by test/browser/dialogs.test.ts, where styles are real).
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { analyzeUrl } from '../../../shared/url/analyze-url';
import { confirmQuestion, everyWidgetSchema, formQuestion, urlQuestion } from '../testing/questions';
import { renderApp } from '../testing/render-app';

async function violations(): Promise<string[]> {
  const result = await axe.run(document, { rules: { 'color-contrast': { enabled: false } } });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('axe-core finds no violations', () => {
  it('form dialog (every widget), also with errors shown and a secret warning', async () => {
    const schema = {
      ...everyWidgetSchema,
      properties: { ...everyWidgetSchema.properties, password: { type: 'string' as const, title: 'Password' } },
    };
    await renderApp({ questions: [formQuestion(schema)] });
    await screen.findByRole('dialog');
    expect(await violations()).toEqual([]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Submit' }));
    await screen.findAllByText('This field is required.');
    expect(await violations()).toEqual([]);
  });

  it('confirm dialog', async () => {
    await renderApp({ questions: [confirmQuestion()] });
    await screen.findByRole('dialog');
    expect(await violations()).toEqual([]);
  });

  it('URL dialog with warnings, blocked and waiting', async () => {
    const app = await renderApp({
      questions: [
        { ...urlQuestion(), url: analyzeUrl('https://paypal.com@xn--bcher-kva.example/' + 'a'.repeat(2100)) },
      ],
    });
    await screen.findByRole('dialog');
    expect(await violations()).toEqual([]);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Open in browser' }));
    await screen.findByTestId('url-waiting');
    expect(await violations()).toEqual([]);
    app.unmount();
    await renderApp({ questions: [{ ...urlQuestion(), url: analyzeUrl('javascript:alert(1)') }] });
    await screen.findByRole('dialog');
    expect(await violations()).toEqual([]);
  });

  it('the idle app with its settings', async () => {
    await renderApp();
    expect(await violations()).toEqual([]);
  });
});
