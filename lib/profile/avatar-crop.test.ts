import { describe, expect, it } from 'vitest';
import { MAX_ZOOM, centred, cropOf, placed, scaleOf, zoomed } from './avatar-crop';

describe('avatar framing', () => {
  it('starts with the centre square of a landscape or portrait picture', () => {
    expect(cropOf(centred(1200, 800, 240))).toEqual({ x: 200, y: 0, size: 800 });
    expect(cropOf(centred(600, 1000, 240))).toEqual({ x: 0, y: 200, size: 600 });
    expect(cropOf(centred(300, 300, 240))).toEqual({ x: 0, y: 0, size: 300 });
  });

  it('never leaves a gap: moving past an edge stops at it', () => {
    const framing = centred(1200, 800, 240);
    expect(placed(framing, 50, 50)).toMatchObject({ x: 0, y: 0 });
    const farRight = placed(framing, -10_000, 0);
    expect(farRight.x).toBe(240 - 1200 * scaleOf(framing));
    expect(cropOf(farRight)).toEqual({ x: 400, y: 0, size: 800 });
  });

  it('zooms about the centre, between 1 and MAX_ZOOM, keeping a smaller square of the same middle', () => {
    const framing = centred(1000, 1000, 200);
    const twice = zoomed(framing, 2);
    expect(cropOf(twice)).toEqual({ x: 250, y: 250, size: 500 });
    expect(zoomed(framing, 99).zoom).toBe(MAX_ZOOM);
    expect(zoomed(twice, 0.1)).toMatchObject({ zoom: 1, x: 0, y: 0 });
  });

  it('zooming out of a corner keeps the picture covering the frame', () => {
    const corner = placed(zoomed(centred(1000, 1000, 200), 4), -10_000, -10_000);
    expect(cropOf(corner)).toEqual({ x: 750, y: 750, size: 250 });
    expect(cropOf(zoomed(corner, 1))).toEqual({ x: 0, y: 0, size: 1000 });
  });
});
