import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { FlatSchema } from '../../../shared/elicitation/types';
import { everyWidgetSchema, formQuestion, origin } from '../testing/questions';
import { renderApp } from '../testing/render-app';
import { contentFromFormData, initialFormData, sortByField } from './FormDialog';
import { normaliseForForm } from '../../../shared/elicitation/for-form';

const simple: FlatSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', title: 'Title', minLength: 3 },
    count: { type: 'integer', title: 'Count', minimum: 1, maximum: 9, default: 2 },
  },
  required: ['title'],
};

async function open(
  schema: FlatSchema,
  extra: Parameters<typeof formQuestion>[1] = {},
  options: Parameters<typeof renderApp>[0] = {},
) {
  const question = formQuestion(schema, extra);
  const app = await renderApp({ questions: [question], ...options });
  const dialog = await screen.findByRole('dialog');
  return { app, question, dialog, user: userEvent.setup() };
}

describe('FormDialog: who asks and why', () => {
  it('puts the danger accent on Submit when the server marks the tool destructive', async () => {
    const { dialog } = await open(simple, {
      origin: origin({ server: 'ops', method: 'tools/call', name: 'deploy', toolHints: { destructive: true } }),
    });
    expect(within(dialog).getByText(/The server marks this tool destructive/)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Submit' }).className).toContain('button-danger');
  });

  it('shows server, call, arguments summary, round and message as plain text', async () => {
    const { dialog } = await open(simple, {
      message: 'Fill in <b>this</b> and see https://example.com **now**',
      origin: origin({
        server: 'github',
        method: 'tools/call',
        name: 'create_issue',
        argumentsSummary: 'repo="octo/hello", title="Crash"',
        round: 3,
      }),
    });
    expect(within(dialog).getByRole('heading', { name: 'github asks for information' })).toBeTruthy();
    expect(within(dialog).getByText('Tool')).toBeTruthy();
    expect(within(dialog).getByText('create_issue')).toBeTruthy();
    expect(within(dialog).getByText('repo="octo/hello", title="Crash"')).toBeTruthy();
    expect(within(dialog).getByText('Round 3')).toBeTruthy();
    expect(within(dialog).getByText('Fill in <b>this</b> and see https://example.com **now**')).toBeTruthy();
    expect(dialog.querySelector('a, b, strong.md, img, iframe')).toBeNull();
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(dialog.getAttribute('aria-describedby')!)?.textContent).toContain('Fill in');
  });

  it('names prompts and resources too, and shows the round even when it is the first', async () => {
    const { dialog } = await open(simple, {
      origin: origin({ method: 'resources/read', name: 'file:///etc/hosts', argumentsSummary: undefined, round: 1 }),
    });
    expect(within(dialog).getByText('Resource')).toBeTruthy();
    expect(within(dialog).getByText('file:///etc/hosts').tagName).not.toBe('A');
    // The README promises every dialog shows its round: round 1 too.
    expect(within(dialog).getByText('Round 1')).toBeTruthy();
  });
});

describe('FormDialog: every widget, review and submit', () => {
  it('pre-fills defaults and sends every field with the right type after editing', async () => {
    const { app, user } = await open(everyWidgetSchema);
    const name = screen.getByLabelText(/^Name/) as HTMLInputElement;
    expect(name.value).toBe('Ada');
    expect((screen.getByLabelText('Seats') as HTMLInputElement).value).toBe('2');
    expect((screen.getByRole('checkbox', { name: 'Subscribe' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('core') as HTMLInputElement).checked).toBe(true);

    await user.clear(name);
    await user.type(name, 'Grace');
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.type(screen.getByLabelText('Homepage'), 'https://example.com/');
    fireEvent.change(screen.getByLabelText('Birthday'), { target: { value: '1906-12-09' } });
    fireEvent.change(screen.getByLabelText('Meeting'), { target: { value: '2026-07-28T09:30' } });
    fireEvent.change(screen.getByLabelText('Score'), { target: { value: '7.5' } });
    await user.clear(screen.getByLabelText('Seats'));
    await user.type(screen.getByLabelText('Seats'), '4');
    await user.click(screen.getByRole('checkbox', { name: 'Subscribe' }));
    await user.click(screen.getByLabelText('green'));
    await user.click(screen.getByLabelText('Medium'));
    await user.selectOptions(screen.getByLabelText('Legacy'), 'Bravo');
    await user.click(screen.getByLabelText('ui'));
    await user.click(screen.getByLabelText('Operations'));
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({
      action: 'accept',
      content: {
        name: 'Grace',
        email: 'grace@example.com',
        homepage: 'https://example.com/',
        birthday: '1906-12-09',
        meeting: new Date('2026-07-28T09:30').toJSON(),
        score: 7.5,
        seats: 4,
        subscribe: false,
        colour: 'green',
        size: 'm',
        legacy: 'b',
        tags: ['ui', 'core'],
        teams: ['ops'],
      },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('accepting the defaults sends every defaulted field', async () => {
    const schema: FlatSchema = {
      type: 'object',
      properties: {
        name: { type: 'string', default: 'Ada' },
        n: { type: 'number', default: 1.5 },
        ok: { type: 'boolean', default: false },
        pick: { type: 'string', enum: ['a', 'b'], default: 'b' },
        many: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, default: ['y'] },
        none: { type: 'string' },
      },
    };
    const { app, user } = await open(schema);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({
      action: 'accept',
      content: { name: 'Ada', n: 1.5, ok: false, pick: 'b', many: ['y'] },
    });
  });

  it('pre-selects nothing the server did not default: titled choices and multi-selects start empty', async () => {
    const { app, user } = await open({
      type: 'object',
      properties: {
        size: {
          type: 'string',
          title: 'Size',
          oneOf: [
            { const: 's', title: 'Small' },
            { const: 'l', title: 'Large' },
          ],
        },
        pick: {
          type: 'string',
          title: 'Pick',
          oneOf: [
            { const: 'a', title: 'A' },
            { const: 'b', title: 'B' },
          ],
        },
        teams: { type: 'array', title: 'Teams', items: { anyOf: [{ const: 'web', title: 'Web' }] }, minItems: 1 },
      },
      required: ['size'],
    });
    expect(screen.getAllByRole('radio').some((r) => (r as HTMLInputElement).checked)).toBe(false);
    expect((screen.getByLabelText('Pick') as HTMLSelectElement).value).toBe('');
    expect((screen.getByLabelText('Web') as HTMLInputElement).checked).toBe(false);
    await user.click(screen.getByLabelText('Small'));
    await user.click(screen.getByLabelText('Web'));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({ action: 'accept', content: { size: 's', teams: ['web'] } });
  });

  it('a complete address with a raw "ü" is accepted and sent as the URL parser encodes it', async () => {
    const { app, user } = await open({
      type: 'object',
      properties: { site: { type: 'string', title: 'Site', format: 'uri' } },
      required: ['site'],
    });
    await user.type(screen.getByLabelText(/^Site/), 'https://example.com/müsli');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(screen.queryByText(/Enter a full address/)).toBeNull();
    expect(app.answers()[0]!.answer).toEqual({ action: 'accept', content: { site: 'https://example.com/m%C3%BCsli' } });
  });

  it('a required checkbox is sent as the false it shows', async () => {
    const { app, user } = await open({
      type: 'object',
      properties: { agree: { type: 'boolean', title: 'Agree' } },
      required: ['agree'],
    });
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({ action: 'accept', content: { agree: false } });
  });
});

describe('FormDialog: validation before anything is sent', () => {
  it('shows a field’s error once it is left, not before, and others stay quiet', async () => {
    const { user } = await open(simple);
    const title = screen.getByLabelText(/^Title/);
    await user.type(title, 'ab');
    expect(screen.queryByText('Enter at least 3 characters.')).toBeNull();
    await user.tab();
    expect(await screen.findByText('Enter at least 3 characters.')).toBeTruthy();
    expect(title.getAttribute('aria-invalid')).toBe('true');
  });

  it('Submit with errors sends nothing, marks every bad field, focuses the first on screen and says how many', async () => {
    // Ajv lists "required" first; the first field on screen is the number, and focus must go there.
    const schema: FlatSchema = {
      type: 'object',
      properties: { a: { type: 'integer', title: 'Alpha', maximum: 3 }, b: { type: 'string', title: 'Beta' } },
      required: ['b'],
    };
    const { app, user } = await open(schema);
    await user.type(screen.getByLabelText('Alpha'), '7');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    expect(screen.getByText('Enter a number of at most 3.')).toBeTruthy();
    expect(screen.getByText('Please correct the 2 highlighted fields.')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Alpha'));
    expect(app.answers()).toHaveLength(0);

    await user.clear(screen.getByLabelText('Alpha'));
    await user.type(screen.getByLabelText('Alpha'), '3');
    await user.type(screen.getByLabelText(/^Beta/), 'x');
    await waitFor(() => expect(screen.queryByText('This field is required.')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({ action: 'accept', content: { a: 3, b: 'x' } });
  });

  it('Enter in a field never submits', async () => {
    const { app, user } = await open(simple);
    await user.type(screen.getByLabelText(/^Title/), 'Hello{Enter}');
    expect(app.answers()).toHaveLength(0);
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});

describe('FormDialog: three outcomes', () => {
  it('Decline sends decline', async () => {
    const { app, user } = await open(simple);
    await user.click(screen.getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({ action: 'decline' });
  });

  it('Escape sends cancel, even from inside a field', async () => {
    const { app, user } = await open(simple);
    await user.click(screen.getByLabelText(/^Title/));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({ action: 'cancel' });
  });

  it('the close button sends cancel', async () => {
    const { app, user } = await open(simple);
    await user.click(screen.getByRole('button', { name: 'Cancel: dismiss without answering' }));
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({ action: 'cancel' });
  });

  it('works by keyboard alone: focus starts on the dialog, Tab through fields, Enter on Submit', async () => {
    const { app, user, dialog } = await open({
      type: 'object',
      properties: {
        title: { type: 'string', title: 'Title' },
        kind: { type: 'string', title: 'Kind', enum: ['bug', 'idea'] },
        labels: { type: 'array', title: 'Labels', items: { type: 'string', enum: ['ui', 'core'] } },
        urgent: { type: 'boolean', title: 'Urgent' },
      },
      required: ['title', 'kind'],
    });
    expect(document.activeElement).toBe(dialog);
    await user.tab(); // close button
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText(/^Title/));
    await user.keyboard('Crash on start');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('bug'));
    await user.keyboard('{ArrowDown}');
    expect((screen.getByLabelText('idea') as HTMLInputElement).checked).toBe(true);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('ui'));
    await user.tab();
    await user.keyboard(' ');
    expect((screen.getByLabelText('core') as HTMLInputElement).checked).toBe(true);
    await user.tab();
    await user.keyboard(' ');
    await user.tab(); // Cancel
    await user.tab(); // Decline
    await user.tab(); // Submit
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Submit' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(app.answers()).toHaveLength(1));
    expect(app.answers()[0]!.answer).toEqual({
      action: 'accept',
      content: { title: 'Crash on start', kind: 'idea', labels: ['core'], urgent: true },
    });
  });

  it('Tab wraps inside the dialog', async () => {
    const { user } = await open(simple);
    screen.getByRole('button', { name: 'Submit' }).focus();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel: dismiss without answering' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Submit' }));
  });

  it('a failed send keeps the dialog with the error; trying again works', async () => {
    const { app, user } = await open(simple);
    app.host.failNextAnswer('the host went quiet');
    await user.click(screen.getByRole('button', { name: 'Decline' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'The answer could not be sent: the host went quiet',
    );
    await user.click(screen.getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(app.answers().map((a) => a.answer)).toEqual([{ action: 'decline' }, { action: 'decline' }]);
  });
});

describe('FormDialog: secrets and language', () => {
  it('warns about fields that look like secrets, in a banner and at the field', async () => {
    await open({
      type: 'object',
      properties: {
        user: { type: 'string', title: 'User' },
        password: { type: 'string', title: 'Password' },
        token: { type: 'string', title: 'Access token' },
      },
    });
    expect(screen.getByRole('note').textContent).toMatch(
      /looks like a secret \(Password, Access token\).*Declining is the safe choice/,
    );
    expect(screen.getAllByText('Looks like a secret. Prefer declining.')).toHaveLength(2);
  });

  it('speaks German when the settings say so', async () => {
    await open(simple, {}, { settings: { language: 'de' } });
    expect(screen.getByRole('heading', { name: 'github bittet um Angaben' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Absenden' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ablehnen' })).toBeTruthy();
    expect(screen.getByText('Ganze Zahl · Von 1 bis 9')).toBeTruthy();
    expect(document.documentElement.lang).toBe('de');
  });
});

describe('form data helpers', () => {
  const schema = normaliseForForm(everyWidgetSchema);
  it('contentFromFormData keeps only schema fields with MCP-valid values', () => {
    expect(
      contentFromFormData(schema, {
        name: 'x',
        score: NaN,
        seats: 2,
        tags: ['a'],
        extra: 1,
        subscribe: undefined,
        colour: null,
      }),
    ).toEqual({ name: 'x', seats: 2, tags: ['a'] });
  });
  it('sortByField orders errors like the fields', () => {
    const errs = [
      { property: 'b', stack: '' },
      { property: '.a', stack: '' },
      { property: '.zz', stack: '' },
      { property: '.b', name: 'x', stack: '' },
    ];
    expect(sortByField(errs, ['a', 'b']).map((e) => e.property)).toEqual(['.a', 'b', '.b', '.zz']);
  });
  it('initialFormData starts every boolean without default at false, required or not (what the form shows is sent)', () => {
    const s = normaliseForForm({
      type: 'object',
      properties: { a: { type: 'boolean' }, b: { type: 'boolean', default: true }, c: { type: 'boolean' } },
      required: ['a', 'b'],
    });
    expect(initialFormData(s)).toEqual({ a: false, c: false });
  });
});
