// The theme's shared suite: every widget drawn through RJSF with the
// Countersign theme, checked for label, required marking, description
// wiring, value handling and inline errors.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type Form from '@rjsf/core';
import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { normaliseForForm } from '../../../shared/elicitation/for-form';
import type { FlatSchema, PrimitiveSchema } from '../../../shared/elicitation/types';
import { createTranslate } from '../i18n/translate';
import '../testing/render-app'; // cleanup between tests
import { localiseErrors } from './error-messages';
import { ThemedForm } from './theme';
import { buildUiSchema } from './ui-schema';
import { createFormValidator } from './validator';

const t = createTranslate('en');

function renderField(
  field: PrimitiveSchema,
  { required = false, name = 'f', secret = false, language = 'en' as 'en' | 'de' } = {},
) {
  const t = createTranslate(language);
  const flat: FlatSchema = { type: 'object', properties: { [name]: field }, required: required ? [name] : [] };
  const schema = normaliseForForm(flat);
  const onSubmit = vi.fn();
  const ref = createRef<Form>();
  render(
    <ThemedForm
      ref={ref}
      schema={schema as never}
      uiSchema={buildUiSchema(schema)}
      validator={createFormValidator()}
      formContext={{ t, language, secretFields: new Set(secret ? [name] : []) }}
      noHtml5Validate
      showErrorList={false}
      transformErrors={(e) => localiseErrors(e, t)}
      onError={() => {}}
      onSubmit={(e) => onSubmit(e.formData)}
    />,
  );
  const submit = () => act(() => ref.current!.submit());
  return { onSubmit, submit, submitted: () => onSubmit.mock.calls.at(-1)?.[0] as Record<string, unknown> | undefined };
}

function describedText(el: HTMLElement): string {
  const ids = (el.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? `<missing ${id}>`).join(' | ');
}

describe('theme widgets', () => {
  it('text: labelled input, required mark, length hint, live count, minLength error', async () => {
    const user = userEvent.setup();
    const { submit, submitted } = renderField(
      { type: 'string', title: 'Name', description: 'Your full name', minLength: 2, maxLength: 10 },
      { required: true },
    );
    const input = screen.getByLabelText(/Name/) as HTMLInputElement;
    expect(input.type).toBe('text');
    expect(input.required).toBe(true);
    expect(screen.getByText('*')).toBeTruthy();
    expect(describedText(input)).toBe('Your full name | At least 2 characters · 0 of at most 10 characters');
    await user.type(input, 'A');
    expect(describedText(input)).toContain('1 of at most 10 characters');
    await submit();
    expect(submitted()).toBeUndefined();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(input)).toContain('Enter at least 2 characters.');
    await user.type(input, 'da');
    await submit();
    expect(submitted()).toEqual({ f: 'Ada' });
  });

  it('email: type=email, format error', async () => {
    const user = userEvent.setup();
    const { submit, submitted } = renderField({ type: 'string', title: 'Email', format: 'email' });
    const input = screen.getByLabelText('Email') as HTMLInputElement;
    expect(input.type).toBe('email');
    await user.type(input, 'nobody');
    await submit();
    expect(screen.getByText(/Enter an email address/)).toBeTruthy();
    await user.type(input, '@example.com');
    await submit();
    expect(submitted()).toEqual({ f: 'nobody@example.com' });
  });

  it('uri: type=url, a relative reference is refused', async () => {
    const user = userEvent.setup();
    const { submit, submitted } = renderField({ type: 'string', title: 'Site', format: 'uri' });
    const input = screen.getByLabelText('Site') as HTMLInputElement;
    expect(input.type).toBe('url');
    await user.type(input, '/relative');
    await submit();
    expect(screen.getByText(/Enter a full address/)).toBeTruthy();
    await user.clear(input);
    await user.type(input, 'https://example.com/x');
    await submit();
    expect(submitted()).toEqual({ f: 'https://example.com/x' });
  });

  it('date: a real date input giving YYYY-MM-DD', async () => {
    const { submit, submitted } = renderField({ type: 'string', title: 'Day', format: 'date', default: '2026-07-28' });
    const input = screen.getByLabelText('Day') as HTMLInputElement;
    expect(input.type).toBe('date');
    expect(input.value).toBe('2026-07-28');
    fireEvent.change(input, { target: { value: '2026-12-24' } });
    await submit();
    expect(submitted()).toEqual({ f: '2026-12-24' });
  });

  it('date-time: a real datetime-local input, sent as UTC with Z, hint shows what is sent', async () => {
    const { submit, submitted } = renderField({ type: 'string', title: 'When', format: 'date-time' });
    const input = screen.getByLabelText('When') as HTMLInputElement;
    expect(input.type).toBe('datetime-local');
    fireEvent.change(input, { target: { value: '2026-07-28T09:30' } });
    const sent = new Date('2026-07-28T09:30').toJSON();
    expect(describedText(input)).toContain(`Sent as ${sent}`);
    expect(input.value.startsWith('2026-07-28T09:30')).toBe(true);
    await submit();
    expect(submitted()).toEqual({ f: sent });
  });

  it('date in German: typed as TT.MM.JJJJ (the browser picker would show its own order), sent as YYYY-MM-DD', async () => {
    const user = userEvent.setup();
    const { submit, submitted } = renderField(
      { type: 'string', title: 'Tag', format: 'date', default: '2026-07-28' },
      { language: 'de' },
    );
    const input = screen.getByLabelText('Tag') as HTMLInputElement;
    expect([input.type, input.value, input.placeholder]).toEqual(['text', '28.07.2026', 'TT.MM.JJJJ']);
    expect(describedText(input)).toBe('Format: TT.MM.JJJJ');
    await user.clear(input);
    await user.type(input, '31.02.2026');
    await submit();
    expect(screen.getByText('Geben Sie ein Datum ein.')).toBeTruthy();
    expect(submitted()).toBeUndefined();
    await user.clear(input);
    await user.type(input, '24.12.2026');
    await submit();
    expect(submitted()).toEqual({ f: '2026-12-24' });
    expect(input.value).toBe('24.12.2026');
  });

  it('date-time in German: TT.MM.JJJJ HH:MM in local time, sent as UTC with Z, the hint says what is sent', async () => {
    const user = userEvent.setup();
    const { submit, submitted } = renderField(
      { type: 'string', title: 'Wann', format: 'date-time' },
      { language: 'de' },
    );
    const input = screen.getByLabelText('Wann') as HTMLInputElement;
    expect([input.type, input.placeholder]).toEqual(['text', 'TT.MM.JJJJ HH:MM']);
    expect(describedText(input)).toBe('Format: TT.MM.JJJJ HH:MM');
    await user.type(input, '28.07.2026 09:30');
    const sent = new Date(2026, 6, 28, 9, 30).toJSON();
    expect(describedText(input)).toBe(`Format: TT.MM.JJJJ HH:MM · Ihre Ortszeit. Gesendet als ${sent}.`);
    await submit();
    expect(submitted()).toEqual({ f: sent });
  });

  it('number: native number input with min/max, range hint and range errors', async () => {
    const user = userEvent.setup();
    const { submit, submitted } = renderField({ type: 'number', title: 'Score', minimum: 0, maximum: 10 });
    const input = screen.getByLabelText('Score') as HTMLInputElement;
    expect([input.type, input.min, input.max, input.step]).toEqual(['number', '0', '10', 'any']);
    expect(describedText(input)).toBe('From 0 to 10');
    await user.type(input, '11');
    await submit();
    expect(screen.getByText('Enter a number of at most 10.')).toBeTruthy();
    fireEvent.change(input, { target: { value: '2.5' } });
    await submit();
    expect(submitted()).toEqual({ f: 2.5 });
  });

  it('integer: step 1, a fraction is refused', async () => {
    const { submit, submitted } = renderField({ type: 'integer', title: 'Seats', minimum: 1 });
    const input = screen.getByLabelText('Seats') as HTMLInputElement;
    expect(input.step).toBe('1');
    fireEvent.change(input, { target: { value: '1.5' } });
    await submit();
    expect(screen.getByText('Enter a whole number.')).toBeTruthy();
    fireEvent.change(input, { target: { value: '3' } });
    await submit();
    expect(submitted()).toEqual({ f: 3 });
  });

  it('boolean: a checkbox labelled beside it, default honoured', async () => {
    const user = userEvent.setup();
    const { submit, submitted } = renderField({
      type: 'boolean',
      title: 'Subscribe',
      description: 'Weekly mail',
      default: true,
    });
    const box = screen.getByRole('checkbox', { name: 'Subscribe' }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    expect(describedText(box)).toBe('Weekly mail');
    await user.click(box);
    await submit();
    expect(submitted()).toEqual({ f: false });
  });

  it('single-select from enum (required, few options): radio group with a legend', async () => {
    const user = userEvent.setup();
    const { submit, submitted } = renderField(
      { type: 'string', title: 'Colour', enum: ['red', 'green'] },
      { required: true },
    );
    const group = screen.getByRole('group', { name: /Colour/ });
    const radios = within(group).getAllByRole('radio');
    expect(radios).toHaveLength(2);
    await submit();
    expect(within(group).getByText('This field is required.')).toBeTruthy();
    expect(describedText(group)).toContain('This field is required.');
    await user.click(within(group).getByLabelText('green'));
    await submit();
    expect(submitted()).toEqual({ f: 'green' });
  });

  it('single-select from titled oneOf: titles shown, const sent', async () => {
    const user = userEvent.setup();
    const { submit, submitted } = renderField(
      {
        type: 'string',
        title: 'Size',
        oneOf: [
          { const: 's', title: 'Small' },
          { const: 'l', title: 'Large' },
        ],
      },
      { required: true },
    );
    await user.click(screen.getByLabelText('Large'));
    await submit();
    expect(submitted()).toEqual({ f: 'l' });
  });

  it('single-select from legacy enumNames (optional): a select with names shown, values sent, clearable', async () => {
    const user = userEvent.setup();
    const { submit, submitted } = renderField({
      type: 'string',
      title: 'Legacy',
      enum: ['a', 'b'],
      enumNames: ['Alpha', 'Bravo'],
    });
    const select = screen.getByLabelText('Legacy') as HTMLSelectElement;
    expect([...select.options].map((o) => o.text)).toEqual(['No selection', 'Alpha', 'Bravo']);
    await user.selectOptions(select, 'Bravo');
    await submit();
    expect(submitted()).toEqual({ f: 'b' });
    await user.selectOptions(select, 'No selection');
    await submit();
    expect(submitted()).toEqual({});
  });

  it('a required select offers "Choose…" until something is chosen', async () => {
    const user = userEvent.setup();
    renderField({ type: 'string', title: 'Pick', enum: ['1', '2', '3', '4', '5', '6'] }, { required: true });
    const select = screen.getByLabelText(/Pick/) as HTMLSelectElement;
    expect(select.options[0]?.text).toBe('Choose…');
    await user.selectOptions(select, '4');
    expect([...select.options].map((o) => o.text)).toEqual(['1', '2', '3', '4', '5', '6']);
  });

  it('multi-select from items.enum: checkboxes, min/max hint, maxItems error, option order kept', async () => {
    const user = userEvent.setup();
    const { submit, submitted } = renderField(
      {
        type: 'array',
        title: 'Tags',
        items: { type: 'string', enum: ['ui', 'core', 'docs'] },
        minItems: 1,
        maxItems: 2,
      },
      { required: true },
    );
    const group = screen.getByRole('group', { name: /Tags/ });
    expect(describedText(group)).toBe('Choose 1 to 2');
    await user.click(within(group).getByLabelText('docs'));
    await user.click(within(group).getByLabelText('ui'));
    await user.click(within(group).getByLabelText('core'));
    await submit();
    expect(within(group).getByText('Choose at most 2.')).toBeTruthy();
    await user.click(within(group).getByLabelText('core'));
    await submit();
    expect(submitted()).toEqual({ f: ['ui', 'docs'] });
  });

  it('multi-select from items.anyOf: titled checkboxes, default pre-checked, minItems error', async () => {
    const user = userEvent.setup();
    const { submit, submitted } = renderField(
      {
        type: 'array',
        title: 'Teams',
        items: {
          anyOf: [
            { const: 'web', title: 'Web team' },
            { const: 'ops', title: 'Operations' },
          ],
        },
        minItems: 1,
        default: ['ops'],
      },
      { required: true },
    );
    const ops = screen.getByLabelText('Operations') as HTMLInputElement;
    expect(ops.checked).toBe(true);
    await user.click(ops);
    await submit();
    expect(screen.getByText('Choose at least 1.')).toBeTruthy();
    await user.click(screen.getByLabelText('Web team'));
    await submit();
    expect(submitted()).toEqual({ f: ['web'] });
  });

  it('multi-select: unticking everything leaves an optional field out (its minItems does not apply)', async () => {
    const user = userEvent.setup();
    const { submit, submitted } = renderField({
      type: 'array',
      title: 'Tags',
      items: { type: 'string', enum: ['ui', 'core'] },
      minItems: 1,
      default: ['ui'],
    });
    await user.click(screen.getByLabelText('ui'));
    await submit();
    expect(submitted()).toEqual({});
  });

  it('multi-select: a required one sends the empty list and says why it is not enough', async () => {
    const user = userEvent.setup();
    const { submit } = renderField(
      { type: 'array', title: 'Tags', items: { type: 'string', enum: ['ui', 'core'] }, minItems: 1, default: ['ui'] },
      { required: true },
    );
    await user.click(screen.getByLabelText('ui'));
    await submit();
    expect(screen.getByText('Choose at least 1.')).toBeTruthy();
  });

  it('a secret-looking field carries a warning wired to its input', () => {
    renderField({ type: 'string', title: 'API key' }, { name: 'apiKey', secret: true });
    const input = screen.getByLabelText('API key');
    expect(describedText(input)).toBe('Looks like a secret. Prefer declining.');
  });

  it('descriptions are plain text, never HTML or markdown', () => {
    renderField({ type: 'string', title: 'X', description: '<b>bold</b> [link](https://evil.example)' });
    expect(screen.getByText('<b>bold</b> [link](https://evil.example)')).toBeTruthy();
    expect(document.querySelector('b, a')).toBeNull();
  });
});
