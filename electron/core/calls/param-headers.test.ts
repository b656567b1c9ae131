import { describe, expect, it } from 'vitest';
import { encodeHeaderValue, paramHeaders, scanHeaderDeclarations } from './param-headers';

describe('SEP-2243 Mcp-Param headers', () => {
  const schema = {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      dryRun: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
      nested: { type: 'object', properties: { tenant: { type: 'string', 'x-mcp-header': 'Tenant' } } },
      query: { type: 'string' },
    },
  };

  it('finds declarations along properties chains', () => {
    const scan = scanHeaderDeclarations(schema);
    expect(scan).toEqual({
      valid: true,
      declarations: [
        { path: ['region'], header: 'Region' },
        { path: ['priority'], header: 'Priority' },
        { path: ['dryRun'], header: 'Dry-Run' },
        { path: ['nested', 'tenant'], header: 'Tenant' },
      ],
    });
  });

  it('rejects invalid declarations', () => {
    const bad = (prop: Record<string, unknown>) => scanHeaderDeclarations({ type: 'object', properties: { a: prop } });
    expect(bad({ type: 'string', 'x-mcp-header': 'has space' }).valid).toBe(false);
    expect(bad({ type: 'string', 'x-mcp-header': '' }).valid).toBe(false);
    expect(bad({ type: 'number', 'x-mcp-header': 'N' }).valid).toBe(false);
    expect(bad({ type: 'array', items: { type: 'string', 'x-mcp-header': 'I' } }).valid).toBe(false);
    expect(
      scanHeaderDeclarations({
        type: 'object',
        properties: { a: { type: 'string', 'x-mcp-header': 'X' }, b: { type: 'string', 'x-mcp-header': 'x' } },
      }).valid,
    ).toBe(false);
    expect(
      scanHeaderDeclarations({
        type: 'object',
        anyOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }],
      }).valid,
    ).toBe(false);
  });

  it('converts values and omits absent and null ones', () => {
    const scan = scanHeaderDeclarations(schema);
    if (!scan.valid) throw new Error('unexpected');
    expect(
      paramHeaders(scan.declarations, {
        region: 'eu-west',
        priority: 3,
        dryRun: false,
        nested: { tenant: null },
        query: 'q',
      }),
    ).toEqual({
      'Mcp-Param-Region': 'eu-west',
      'Mcp-Param-Priority': '3',
      'Mcp-Param-Dry-Run': 'false',
    });
  });

  it('base64-wraps values that are not safe plain ASCII', () => {
    expect(encodeHeaderValue('plain value')).toBe('plain value');
    expect(encodeHeaderValue('')).toBe('');
    expect(encodeHeaderValue(' padded')).toBe(`=?base64?${Buffer.from(' padded').toString('base64')}?=`);
    expect(encodeHeaderValue('Zürich')).toBe(`=?base64?${Buffer.from('Zürich').toString('base64')}?=`);
    expect(encodeHeaderValue('line\nbreak')).toMatch(/^=\?base64\?/);
    expect(encodeHeaderValue('=?base64?abc?=')).toMatch(/^=\?base64\?PT9iYXNlNjQ/);
  });
});
