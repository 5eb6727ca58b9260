// What a file really is, from its first bytes: the type we serve it with never comes from the client.

export interface Sniffed {
  mimeType: string;
  width: number | null;
  height: number | null;
}

/** How many leading bytes sniff() wants; JPEG dimensions come after EXIF, which can be long. */
export const SNIFF_BYTES = 256 * 1024;

const OCTET_STREAM: Sniffed = { mimeType: 'application/octet-stream', width: null, height: null };
const startsWith = (head: Buffer, bytes: number[] | string, at = 0) => {
  const expected = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  return head.length >= at + expected.length && head.subarray(at, at + expected.length).equals(expected);
};
const image = (mimeType: string, size: { width: number; height: number } | null): Sniffed => ({
  mimeType,
  width: size && size.width > 0 && size.height > 0 ? size.width : null,
  height: size && size.width > 0 && size.height > 0 ? size.height : null,
});

/**
 * PNG, JPEG, GIF and WebP (with their pixel size when the header shows it), PDF, and UTF-8 text;
 * anything else is application/octet-stream. `complete` says `head` is the whole file.
 */
export function sniff(head: Buffer, complete: boolean): Sniffed {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    const ok = head.length >= 24 && startsWith(head, 'IHDR', 12);
    return image('image/png', ok ? { width: head.readUInt32BE(16), height: head.readUInt32BE(20) } : null);
  }
  if (startsWith(head, [0xff, 0xd8, 0xff])) return image('image/jpeg', jpegSize(head));
  if (startsWith(head, 'GIF87a') || startsWith(head, 'GIF89a')) {
    return image('image/gif', head.length >= 10 ? { width: head.readUInt16LE(6), height: head.readUInt16LE(8) } : null);
  }
  if (startsWith(head, 'RIFF') && startsWith(head, 'WEBP', 8)) return image('image/webp', webpSize(head));
  if (startsWith(head, '%PDF-')) return { mimeType: 'application/pdf', width: null, height: null };
  if (head.length > 0 && isUtf8Text(head, complete)) return { mimeType: 'text/plain', width: null, height: null };
  return OCTET_STREAM;
}

// Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
const JPEG_SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpegSize(head: Buffer): { width: number; height: number } | null {
  let at = 2;
  while (at + 4 <= head.length) {
    if (head[at] !== 0xff) return null;
    const marker = head[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or start of scan: no frame header seen
    const length = head.readUInt16BE(at + 2);
    if (JPEG_SOF.has(marker)) {
      if (at + 9 > head.length) return null;
      return { height: head.readUInt16BE(at + 5), width: head.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return null;
}

function webpSize(head: Buffer): { width: number; height: number } | null {
  if (head.length < 25) return null;
  const chunk = head.toString('latin1', 12, 16);
  if (chunk === 'VP8L' && head[20] === 0x2f) {
    const bits = head.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  if (head.length < 30) return null;
  if (chunk === 'VP8X') return { width: 1 + head.readUIntLE(24, 3), height: 1 + head.readUIntLE(27, 3) };
  if (chunk === 'VP8 ') return { width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff };
  return null;
}

/** Valid UTF-8 without control characters other than tab, newlines and form feed. */
function isUtf8Text(head: Buffer, complete: boolean): boolean {
  // A cut-off head may end inside a multi-byte character: drop that tail before decoding.
  let end = head.length;
  if (!complete) {
    let back = 0;
    while (back < 3 && end - back - 1 >= 0 && (head[end - back - 1]! & 0xc0) === 0x80) back += 1;
    if (end - back - 1 >= 0 && head[end - back - 1]! >= 0xc0) end -= back + 1;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, end));
  } catch {
    return false;
  }
  return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
}
