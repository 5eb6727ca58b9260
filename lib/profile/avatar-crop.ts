// The square of a picture a profile photo keeps, as the photo editor frames it: the picture covers
// a square frame (never a gap at its edges), can be zoomed in up to MAX_ZOOM and moved within it.
// Pure arithmetic, in the frame's pixels and the picture's; the editor draws it, the canvas cuts it.

export const MAX_ZOOM = 4;

export interface Framing {
  /** The picture's natural size, in its own pixels. */
  width: number;
  height: number;
  /** The frame's side, in screen pixels. */
  frame: number;
  /** 1: the picture's shorter side fills the frame; up to MAX_ZOOM. */
  zoom: number;
  /** Where the picture's top-left corner sits in the frame (≤ 0: it covers the frame). */
  x: number;
  y: number;
}

/** The part of the picture the frame shows, in the picture's pixels: what the photo keeps. */
export interface Crop {
  x: number;
  y: number;
  size: number;
}

/** Screen pixels per picture pixel at this zoom. */
export function scaleOf({ width, height, frame, zoom }: Pick<Framing, 'width' | 'height' | 'frame' | 'zoom'>): number {
  return (frame / Math.min(width, height)) * zoom;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** The framing moved to (x, y), kept covering the frame. */
export function placed(framing: Framing, x: number, y: number): Framing {
  const scale = scaleOf(framing);
  return {
    ...framing,
    x: clamp(x, framing.frame - framing.width * scale, 0),
    y: clamp(y, framing.frame - framing.height * scale, 0),
  };
}

/** A new picture in the frame: its centre square, at zoom 1. */
export function centred(width: number, height: number, frame: number): Framing {
  const scale = scaleOf({ width, height, frame, zoom: 1 });
  return { width, height, frame, zoom: 1, x: (frame - width * scale) / 2, y: (frame - height * scale) / 2 };
}

/** Zoomed to `zoom` (1…MAX_ZOOM) about the frame's centre, so what is in the middle stays there. */
export function zoomed(framing: Framing, zoom: number): Framing {
  const next = clamp(zoom, 1, MAX_ZOOM);
  const ratio = scaleOf({ ...framing, zoom: next }) / scaleOf(framing);
  const centre = framing.frame / 2;
  return placed({ ...framing, zoom: next }, centre - (centre - framing.x) * ratio, centre - (centre - framing.y) * ratio);
}

/** What the frame shows, in the picture's pixels (rounded inward, inside the picture). */
export function cropOf(framing: Framing): Crop {
  const scale = scaleOf(framing);
  const size = Math.max(1, Math.min(Math.floor(framing.frame / scale), framing.width, framing.height));
  return {
    x: clamp(Math.round(-framing.x / scale), 0, framing.width - size),
    y: clamp(Math.round(-framing.y / scale), 0, framing.height - size),
    size,
  };
}
