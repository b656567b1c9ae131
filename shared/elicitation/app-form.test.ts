import { describe, expect, it } from 'vitest';
import { appFormHint, readAppProposal } from './app-form';
import type { FlatSchema } from './types';

const schema: FlatSchema = {
  type: 'object',
  properties: {
    size: { type: 'string', title: 'Size', enum: ['S', 'M', 'L'] },
    note: { type: 'string', maxLength: 5 },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
  },
  required: ['size'],
};

describe('appFormHint', () => {
  it('reads an absolute ui:// resource URI from _meta.ui', () => {
    expect(appFormHint({ _meta: { ui: { resourceUri: 'ui://shop/order.html' } } })).toEqual({
      resourceUri: 'ui://shop/order.html',
    });
  });

  it('ignores what is not one (the native form shows)', () => {
    for (const meta of [
      undefined,
      null,
      'ui://x',
      { ui: null },
      { ui: { resourceUri: 42 } },
      { ui: { resourceUri: 'https://evil.example/app.html' } },
      { ui: { resourceUri: 'ui://' } },
      { ui: { resourceUri: 'ui:///no-host' } },
      { ui: { resourceUri: `ui://x/${'a'.repeat(2048)}` } },
    ])
      expect(appFormHint({ _meta: meta })).toBeUndefined();
  });
});

describe('readAppProposal', () => {
  it('takes values that fit the form, copying only the schema’s fields', () => {
    const tags = ['a'];
    const read = readAppProposal(schema, { action: 'accept', content: { size: 'M', tags } });
    expect(read).toEqual({ kind: 'values', content: { size: 'M', tags: ['a'] } });
    if (read.kind === 'values') expect(read.content.tags).not.toBe(tags);
  });

  it('refuses values that do not fit, naming the problem', () => {
    const read = readAppProposal(schema, { action: 'accept', content: { size: 'XXL', extra: 1 } });
    expect(read.kind).toBe('refused');
    if (read.kind === 'refused') {
      expect(read.reason).toContain('do not fit the form');
      expect(read.reason).toContain('"extra" is not a field of this form');
    }
    expect(readAppProposal(schema, { action: 'accept', content: { note: 'too long' } }).kind).toBe('refused');
    // A required field left out is a bad proposal too (accept with no content).
    expect(readAppProposal(schema, { action: 'accept' }).kind).toBe('refused');
    expect(readAppProposal(schema, { action: 'accept', content: [1] }).kind).toBe('refused');
  });

  it('reads decline and cancel as suggestions, never as answers', () => {
    expect(readAppProposal(schema, { action: 'decline' })).toEqual({ kind: 'suggests', action: 'decline' });
    expect(readAppProposal(schema, { action: 'cancel', content: { size: 'S' } })).toEqual({
      kind: 'suggests',
      action: 'cancel',
    });
  });

  it('refuses what is not a result', () => {
    for (const r of [null, 'accept', [], { action: 'submit' }, {}])
      expect(readAppProposal(schema, r).kind).toBe('refused');
  });
});
