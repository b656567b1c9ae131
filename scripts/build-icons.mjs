#!/usr/bin/env node
// @ts-check
// One-off generator for assets/ (its results are committed; the normal build
// only copies them). Renders the SVG masters with rsvg-convert
// (`apt-get install librsvg2-bin`) and writes ICO and ICNS containers itself.
//
//   assets/icon.svg, assets/icon-small.svg   masters (large, and <= 32 px)
//   assets/icon.png                          1024 px (electron-builder fallback)
//   assets/icons/NxN.png                     Linux: 16 ... 1024
//   assets/icon.ico                          Windows: 16, 24, 32, 48, 64, 128, 256
//   assets/icon.icns                         macOS: 16 ... 1024 incl. @2x
//   assets/runtime/*.png                     tray, badges, window and notification images
//
// Usage: node scripts/build-icons.mjs
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const assets = join(root, 'assets');

export const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
export const ICO_SIZES = [16, 24, 32, 48, 64, 128, 256];
// ICNS element types and the pixel size each holds.
export const ICNS_TYPES = [
  ['icp4', 16],
  ['icp5', 32],
  ['icp6', 64],
  ['ic07', 128],
  ['ic08', 256],
  ['ic09', 512],
  ['ic10', 1024],
  ['ic11', 32],
  ['ic12', 64],
  ['ic13', 256],
  ['ic14', 512],
];
const SMALL_MAX = 32; // sizes up to this use the simplified master

const INK = '#f3ecdf';
const GOLD = '#e2a64b';
const TEAL = '#17495a';
const ALERT = '#c2410c';

// The mark without a tile, for monochrome template images (macOS menu bar).
const TRAY_TEMPLATE_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">
  <path d="M1.8 8.6 L5.2 12 L9.6 6.6" fill="none" stroke="#000" stroke-width="2" stroke-linecap="round" ` +
  `stroke-linejoin="round"/>
  <g transform="translate(10.3 5.9) rotate(40)"><path d="M0 0 L-2.8 -4.4 L-2.8 -6.6 L2.8 -6.6 L2.8 -4.4 Z" ` +
  `fill="#000"/></g>
</svg>`;

// The small tile, optionally with an attention dot.
function traySvg(attention) {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">
  <rect x="1" y="1" width="30" height="30" rx="6.5" fill="${TEAL}"/>
  <path d="M6.5 17.5 L11.5 22.5 L18 14.5" fill="none" stroke="${INK}" stroke-width="3.4" stroke-linecap="round" ` +
    `stroke-linejoin="round"/>
  <g transform="translate(18.6 13.8) rotate(40)"><path d="M0 0 L-4.6 -7 L-4.6 -10.5 L4.6 -10.5 L4.6 -7 Z" ` +
    `fill="${GOLD}"/></g>
  ${attention ? `<circle cx="25" cy="7" r="6.5" fill="${ALERT}" stroke="${INK}" stroke-width="1.6"/>` : ''}
</svg>`
  );
}

// A Windows taskbar overlay: the number waiting on a round badge.
function badgeSvg(text) {
  const size = text.length > 1 ? 10.5 : 13;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">
  <circle cx="16" cy="16" r="15" fill="${ALERT}" stroke="#fff" stroke-width="2"/>
  <text x="16" y="16" dy="0.36em" text-anchor="middle" font-family="DejaVu Sans" font-weight="bold" ` +
    `font-size="${size * 1.55}" fill="#fff">${text}</text>
</svg>`
  );
}

async function render(svgPath, size) {
  return execFileSync('rsvg-convert', ['-w', String(size), '-h', String(size), '-f', 'png', svgPath], {
    maxBuffer: 64 << 20,
  });
}

/** Decodes an 8-bit RGBA, non-interlaced PNG (what rsvg-convert writes) to raw pixels. */
export function decodePng(png) {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let pos = 8;
  let width = 0;
  let height = 0;
  const idat = [];
  while (pos < png.length) {
    const len = png.readUInt32BE(pos);
    const type = png.toString('latin1', pos + 4, pos + 8);
    const data = png.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[9] !== 6 || data[12] !== 0)
        throw new Error('only 8-bit RGBA non-interlaced PNGs are supported');
    } else if (type === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= 4 ? out[y * stride + x - 4] : 0;
      const b = y > 0 ? out[(y - 1) * stride + x] : 0;
      const c = x >= 4 && y > 0 ? out[(y - 1) * stride + x - 4] : 0;
      let v = line[x];
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[y * stride + x] = v & 0xff;
    }
  }
  return { width, height, rgba: out };
}

// A classic 32-bit DIB icon image (BITMAPINFOHEADER, bottom-up BGRA, AND mask).
// Used below 256 px: NSIS and older Windows shells only read PNG entries at 256.
function dibEntry({ width, height, rgba }) {
  const header = Buffer.alloc(40);
  header.writeUInt32LE(40, 0);
  header.writeInt32LE(width, 4);
  header.writeInt32LE(height * 2, 8); // XOR image plus AND mask
  header.writeUInt16LE(1, 12);
  header.writeUInt16LE(32, 14);
  const pixels = Buffer.alloc(width * height * 4);
  const maskStride = Math.ceil(width / 32) * 4;
  const mask = Buffer.alloc(maskStride * height);
  for (let y = 0; y < height; y++) {
    const src = (height - 1 - y) * width * 4;
    for (let x = 0; x < width; x++) {
      const i = src + x * 4;
      const o = (y * width + x) * 4;
      pixels[o] = rgba[i + 2];
      pixels[o + 1] = rgba[i + 1];
      pixels[o + 2] = rgba[i];
      pixels[o + 3] = rgba[i + 3];
      if (rgba[i + 3] === 0) mask[y * maskStride + (x >> 3)] |= 0x80 >> (x & 7);
    }
  }
  return Buffer.concat([header, pixels, mask]);
}

/** An ICO file from PNGs: PNG-compressed at 256 px, 32-bit DIBs below. */
export function encodeIco(pngs) {
  const images = pngs.map(({ size, png }) => ({ size, data: size >= 256 ? png : dibEntry(decodePng(png)) }));
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, data }, i) => {
    const e = 6 + 16 * i;
    header[e] = size >= 256 ? 0 : size;
    header[e + 1] = size >= 256 ? 0 : size;
    header.writeUInt16LE(1, e + 4);
    header.writeUInt16LE(32, e + 6);
    header.writeUInt32LE(data.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.data)]);
}

/** An ICNS file of PNG elements. */
export function encodeIcns(elements) {
  const parts = elements.map(({ type, png }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(8 + parts.reduce((n, p) => n + p.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

async function main() {
  const tmp = await mkdtemp(join(tmpdir(), 'countersign-icons-'));
  try {
    const large = join(assets, 'icon.svg');
    const small = join(assets, 'icon-small.svg');
    const cache = new Map();
    const icon = async (size) => {
      if (!cache.has(size)) cache.set(size, await render(size <= SMALL_MAX ? small : large, size));
      return cache.get(size);
    };

    await mkdir(join(assets, 'icons'), { recursive: true });
    for (const size of LINUX_SIZES) await writeFile(join(assets, 'icons', `${size}x${size}.png`), await icon(size));
    await writeFile(join(assets, 'icon.png'), await icon(1024));
    await writeFile(
      join(assets, 'icon.ico'),
      encodeIco(await Promise.all(ICO_SIZES.map(async (size) => ({ size, png: await icon(size) })))),
    );
    // The @2x elements show the large master even at 32 px: they are drawn on 2x screens at 16 pt.
    const icnsElements = [];
    for (const [type, size] of ICNS_TYPES) {
      const png = type === 'ic11' || type === 'ic12' ? await render(large, size) : await icon(size);
      icnsElements.push({ type, png });
    }
    await writeFile(join(assets, 'icon.icns'), encodeIcns(icnsElements));

    const runtime = join(assets, 'runtime');
    await mkdir(runtime, { recursive: true });
    const write = async (name, svg, size) => {
      const path = join(tmp, `${name}-${size}.svg`);
      await writeFile(path, svg);
      await writeFile(join(runtime, name), await render(path, size));
    };
    await write('trayTemplate.png', TRAY_TEMPLATE_SVG, 16);
    await write('trayTemplate@2x.png', TRAY_TEMPLATE_SVG, 32);
    await write('tray.png', traySvg(false), 16);
    await write('tray@2x.png', traySvg(false), 32);
    await write('tray-attention.png', traySvg(true), 16);
    await write('tray-attention@2x.png', traySvg(true), 32);
    for (const text of ['1', '2', '3', '4', '5', '6', '7', '8', '9', '9+']) {
      const name = text === '9+' ? 'badge-9plus' : `badge-${text}`;
      await write(`${name}.png`, badgeSvg(text), 16);
      await write(`${name}@2x.png`, badgeSvg(text), 32);
    }
    await writeFile(join(runtime, 'window.png'), await icon(512));
    await writeFile(join(runtime, 'notification.png'), await icon(256));
    process.stdout.write(`build-icons: wrote ${assets}\n`);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e) => {
    process.stderr.write(`build-icons: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
