// A profile photo is made in the browser: the chosen picture is decoded, the square the editor
// framed is drawn on a canvas at AVATAR_SIZE, and that small file is what gets uploaded. So every
// photo is a square of a known size, a few kilobytes, and the original (its EXIF location
// included) never leaves the device. docs/DECISIONS.md, "Profile".
import type { Crop } from './avatar-crop';

/** The side of every uploaded photo, in pixels: sharp at the largest size shown (96 CSS px) on a 2× screen. */
const AVATAR_SIZE = 256;
/** WebP quality: at 256 px, indistinguishable from lossless at a tenth of the size. */
const WEBP_QUALITY = 0.9;

class UnreadableImageError extends Error {
  override readonly name = 'UnreadableImageError';
}

export interface DecodedImage {
  /** What the editor shows (an object URL of the file) and the canvas draws. */
  url: string;
  element: HTMLImageElement;
  width: number;
  height: number;
  /** Frees the object URL. */
  release: () => void;
}

/** Decodes `file` (upright, as its EXIF orientation says: the browser's default for <img>). */
export async function decodeImage(file: Blob): Promise<DecodedImage> {
  const url = URL.createObjectURL(file);
  const element = new Image();
  element.decoding = 'async';
  element.src = url;
  try {
    await element.decode();
  } catch {
    URL.revokeObjectURL(url);
    throw new UnreadableImageError('The file is not a picture this browser can read.');
  }
  if (element.naturalWidth === 0 || element.naturalHeight === 0) {
    URL.revokeObjectURL(url);
    throw new UnreadableImageError('The picture has no pixels.');
  }
  return { url, element, width: element.naturalWidth, height: element.naturalHeight, release: () => URL.revokeObjectURL(url) };
}

function toBlob(canvas: HTMLCanvasElement, type: string, quality?: number): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, quality));
}

/**
 * The framed square of `image` as an AVATAR_SIZE square file: WebP where the browser can write it
 * (it hands back PNG otherwise, as Safari does), else PNG.
 */
export async function renderAvatar(image: CanvasImageSource, crop: Crop): Promise<File> {
  const canvas = document.createElement('canvas');
  canvas.width = AVATAR_SIZE;
  canvas.height = AVATAR_SIZE;
  const context = canvas.getContext('2d');
  if (!context) throw new UnreadableImageError('This browser cannot draw pictures.');
  context.imageSmoothingEnabled = true;
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, crop.x, crop.y, crop.size, crop.size, 0, 0, AVATAR_SIZE, AVATAR_SIZE);
  const webp = await toBlob(canvas, 'image/webp', WEBP_QUALITY);
  const blob = webp?.type === 'image/webp' ? webp : await toBlob(canvas, 'image/png');
  if (!blob) throw new UnreadableImageError('The picture could not be drawn.');
  return new File([blob], blob.type === 'image/webp' ? 'avatar.webp' : 'avatar.png', { type: blob.type });
}
