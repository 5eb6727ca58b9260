// Makes the installable app's PNG icons from public/icon.svg and the notification sound, into
// public/. Their output is committed (a build needs no image library); run this again after
// changing icon.svg: `node scripts/make-app-assets.mjs`. The sound is ours: two sine tones.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import sharp from 'sharp';

const SVG = await readFile('public/icon.svg', 'utf8');
// The speech bubble alone, without the rounded square behind it (64×64 user space).
const GLYPH = /<path [^>]*\/>/.exec(SVG)?.[0];
if (!GLYPH) throw new Error('public/icon.svg has no <path> to draw the maskable and badge icons from');
const BRAND = /<rect [^>]*fill="([^"]+)"/.exec(SVG)?.[1] ?? '#3559e0';

const png = (svg, size) => sharp(Buffer.from(svg), { density: 72 * (size / 64) }).resize(size, size).png({ compressionLevel: 9 }).toBuffer();

// Maskable: a full-bleed square, the glyph inside the central 80% safe zone (platforms crop to any shape).
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${BRAND}"/><g transform="translate(9.6 9.6) scale(0.7)">${GLYPH}</g></svg>`;
// Badge: Android draws it as a white mask in the status bar, so only the glyph's shape counts.
const badge = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><g transform="translate(-3.2 -3.2) scale(1.1)">${GLYPH.replace(/fill="[^"]*"/, 'fill="#fff"')}</g></svg>`;

await mkdir('public/icons', { recursive: true });
await writeFile('public/icons/icon-192.png', await png(SVG, 192));
await writeFile('public/icons/icon-512.png', await png(SVG, 512));
await writeFile('public/icons/maskable-512.png', await png(maskable, 512));
await writeFile('public/icons/badge-96.png', await png(badge, 96));

// Two short notes (E6 then A6), each with a quick attack and an exponential fade: 16-bit mono PCM.
const RATE = 22_050;
const notes = [
  { frequency: 1318.5, start: 0, length: 0.12 },
  { frequency: 1760, start: 0.1, length: 0.22 },
];
const total = Math.ceil(RATE * 0.34);
const samples = new Int16Array(total);
for (const { frequency, start, length } of notes) {
  const from = Math.floor(start * RATE);
  for (let i = 0; i < length * RATE && from + i < total; i++) {
    const t = i / RATE;
    const envelope = Math.min(1, t / 0.005) * Math.exp(-t * 14);
    samples[from + i] += Math.round(Math.sin(2 * Math.PI * frequency * t) * envelope * 0.35 * 32767);
  }
}
const data = Buffer.from(samples.buffer);
const header = Buffer.alloc(44);
header.write('RIFF', 0);
header.writeUInt32LE(36 + data.length, 4);
header.write('WAVEfmt ', 8);
header.writeUInt32LE(16, 16);
header.writeUInt16LE(1, 20); // PCM
header.writeUInt16LE(1, 22); // mono
header.writeUInt32LE(RATE, 24);
header.writeUInt32LE(RATE * 2, 28);
header.writeUInt16LE(2, 32);
header.writeUInt16LE(16, 34);
header.write('data', 36);
header.writeUInt32LE(data.length, 40);
await mkdir('public/sounds', { recursive: true });
await writeFile('public/sounds/notification.wav', Buffer.concat([header, data]));
console.log('public/icons/*.png and public/sounds/notification.wav written');
