// JavaScript weight of a first visit: every script response (fresh context, empty cache), gzipped
// here with zlib's default level (6), summed.
import { gzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright';

export interface PageWeight {
  gzipBytes: number;
  rawBytes: number;
  scripts: number;
  files: { url: string; raw: number; gzip: number }[];
}

function weigh(responses: { url: string; body: Buffer }[]): PageWeight {
  const seen = new Set<string>();
  const files: PageWeight['files'] = [];
  for (const { url, body } of responses) {
    if (seen.has(url)) continue;
    seen.add(url);
    files.push({ url: new URL(url).pathname, raw: body.length, gzip: gzipSync(body).length });
  }
  return {
    gzipBytes: files.reduce((sum, file) => sum + file.gzip, 0),
    rawBytes: files.reduce((sum, file) => sum + file.raw, 0),
    scripts: files.length,
    files: files.sort((a, b) => b.gzip - a.gzip),
  };
}

/** Collects every script body the page downloads, each with the phase it came in. */
export function scriptRecorder(page: Page) {
  const bodies: Promise<{ url: string; body: Buffer; phase: string } | null>[] = [];
  let phase = 'load';
  page.on('response', (response: Response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && !/\.m?js(\?|$)/.test(new URL(response.url()).pathname)) return;
    const at = phase;
    bodies.push(response.body().then((body) => ({ url: response.url(), body, phase: at }), () => null));
  });
  return {
    setPhase: (next: string) => {
      phase = next;
    },
    /** The scripts of phase `which`, or those `where` picks among them (by URL). */
    async collect(which: string, where: (url: string) => boolean = () => true) {
      const all = (await Promise.all(bodies)).filter((entry): entry is { url: string; body: Buffer; phase: string } => entry !== null);
      return weigh(all.filter((entry) => entry.phase === which && where(entry.url)));
    },
  };
}
