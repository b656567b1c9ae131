// The committed icons (scripts/build-icons.mjs made them): every size each
// target needs, in containers read back here by an independent reader.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const assets = fileURLToPath(new URL('../../assets/', import.meta.url));
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(png.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

// RGBA pixels of an 8-bit RGBA PNG (filters 0-4), to compare with an ICO's DIB.
function pngPixels(png: Buffer): Buffer {
  const { width, height } = pngSize(png);
  const idat: Buffer[] = [];
  for (let pos = 8; pos < png.length;) {
    const len = png.readUInt32BE(pos);
    if (png.toString('latin1', pos + 4, pos + 8) === 'IDAT') idat.push(png.subarray(pos + 8, pos + 8 + len));
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x++) {
      const a = x >= 4 ? out[y * stride + x - 4]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + x]! : 0;
      const c = x >= 4 && y > 0 ? out[(y - 1) * stride + x - 4]! : 0;
      const p = a + b - c;
      const pred = [
        0,
        a,
        b,
        (a + b) >> 1,
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c,
      ][f]!;
      out[y * stride + x] = (raw[y * (stride + 1) + 1 + x]! + pred) & 0xff;
    }
  }
  return out;
}

describe('app icons', () => {
  it.each([16, 24, 32, 48, 64, 128, 256, 512, 1024])('Linux has %ipx', (size) => {
    expect(pngSize(readFileSync(join(assets, 'icons', `${size}x${size}.png`)))).toEqual({ width: size, height: size });
  });

  it('has the 1024 px PNG and both SVG masters', () => {
    expect(pngSize(readFileSync(join(assets, 'icon.png')))).toEqual({ width: 1024, height: 1024 });
    for (const svg of ['icon.svg', 'icon-small.svg'])
      expect(readFileSync(join(assets, svg), 'utf8')).toMatch(/^<svg [^>]*viewBox=/);
  });

  it('Windows .ico holds 16-256 px; 256 as PNG, smaller ones as DIBs identical to the PNGs', () => {
    const ico = readFileSync(join(assets, 'icon.ico'));
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const e = 6 + 16 * i;
      const size = ico[e] === 0 ? 256 : ico[e]!;
      sizes.push(size);
      const length = ico.readUInt32LE(e + 8);
      const data = ico.subarray(ico.readUInt32LE(e + 12), ico.readUInt32LE(e + 12) + length);
      expect(ico.readUInt16LE(e + 6)).toBe(32);
      if (size === 256) {
        expect(pngSize(data)).toEqual({ width: 256, height: 256 });
        continue;
      }
      expect(data.readUInt32LE(0)).toBe(40);
      expect(data.readInt32LE(4)).toBe(size);
      expect(data.readInt32LE(8)).toBe(size * 2);
      // Bottom-up BGRA must equal the Linux PNG of the same size.
      const rgba = pngPixels(readFileSync(join(assets, 'icons', `${size}x${size}.png`)));
      for (const [x, y] of [
        [0, 0],
        [size >> 1, size >> 1],
        [size - 1, size - 1],
        [size >> 2, (size * 3) >> 2],
      ] as const) {
        const src = (y * size + x) * 4;
        const dib = 40 + ((size - 1 - y) * size + x) * 4;
        expect([data[dib + 2], data[dib + 1], data[dib], data[dib + 3]]).toEqual([
          rgba[src],
          rgba[src + 1],
          rgba[src + 2],
          rgba[src + 3],
        ]);
      }
    }
    expect(sizes).toEqual([16, 24, 32, 48, 64, 128, 256]);
  });

  it('macOS .icns holds every size from 16 to 1024 including @2x', () => {
    const icns = readFileSync(join(assets, 'icon.icns'));
    expect(icns.toString('latin1', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const found: Record<string, number> = {};
    for (let pos = 8; pos < icns.length;) {
      const type = icns.toString('latin1', pos, pos + 4);
      const len = icns.readUInt32BE(pos + 4);
      found[type] = pngSize(icns.subarray(pos + 8, pos + len)).width;
      pos += len;
    }
    expect(found).toEqual({
      icp4: 16,
      icp5: 32,
      icp6: 64,
      ic07: 128,
      ic08: 256,
      ic09: 512,
      ic10: 1024,
      ic11: 32,
      ic12: 64,
      ic13: 256,
      ic14: 512,
    });
  });

  it('has every runtime image main loads, at 1x and 2x', () => {
    const files = new Set(readdirSync(join(assets, 'runtime')));
    const pairs = [
      'tray',
      'tray-attention',
      'trayTemplate',
      ...['1', '2', '3', '4', '5', '6', '7', '8', '9', '9plus'].map((n) => `badge-${n}`),
    ];
    for (const name of pairs) {
      expect(pngSize(readFileSync(join(assets, 'runtime', `${name}.png`)))).toEqual({ width: 16, height: 16 });
      expect(pngSize(readFileSync(join(assets, 'runtime', `${name}@2x.png`)))).toEqual({ width: 32, height: 32 });
    }
    expect(files.has('window.png') && files.has('notification.png')).toBe(true);
  });
});
