// The build's static files (`/_next/static/...`: scripts, styles, fonts, images), served from
// memory. Their names carry a hash of their content, so each answer can be kept for good: the file
// is read and compressed (Brotli and gzip, in libuv's thread pool) once, when the server starts or
// when first asked for, then every request is a lookup. Through Next's handler each one cost
// 3.5–11 ms of this process's event loop (its proxy, its routing, and gzip on every request):
// ~70 ms for the 13 scripts of a first visit to /main, queued in front of that visit's two API
// answers (docs/DECISIONS.md, "The main area's first screen: the server's part").
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { securityHeaders } from '../../lib/security/security-headers';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

export const STATIC_PREFIX = '/_next/static/';

/** What is worth compressing, by extension; anything else is served as stored. */
const TYPES: Record<string, { type: string; compress: boolean }> = {
  '.js': { type: 'application/javascript; charset=UTF-8', compress: true },
  '.css': { type: 'text/css; charset=UTF-8', compress: true },
  '.json': { type: 'application/json; charset=UTF-8', compress: true },
  '.map': { type: 'application/json; charset=UTF-8', compress: true },
  '.svg': { type: 'image/svg+xml', compress: true },
  '.txt': { type: 'text/plain; charset=UTF-8', compress: true },
  '.woff2': { type: 'font/woff2', compress: false },
  '.woff': { type: 'font/woff', compress: false },
  '.png': { type: 'image/png', compress: false },
  '.jpg': { type: 'image/jpeg', compress: false },
  '.webp': { type: 'image/webp', compress: false },
  '.ico': { type: 'image/x-icon', compress: false },
  '.wav': { type: 'audio/wav', compress: false },
};

interface Asset {
  type: string;
  identity: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
}

export interface StaticAssets {
  /** Answers the request if it is for a file of the build; false: not one (Next answers it). */
  serve(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Reads and compresses every file ahead (at start, in the background). */
  warm(): Promise<void>;
}

/** Picks the encoding the client takes, Brotli first. */
function encodingFor(req: IncomingMessage, asset: Asset): 'br' | 'gzip' | null {
  const accepted = String(req.headers['accept-encoding'] ?? '');
  if (asset.br && /\bbr\b/.test(accepted)) return 'br';
  if (asset.gzip && /\bgzip\b/.test(accepted)) return 'gzip';
  return null;
}

/** `root`: the build's static folder (`<distDir>/static`). */
export function createStaticAssets(root: string, { production }: { production: boolean }): StaticAssets {
  const headers = Object.entries({ ...securityHeaders({ production }), 'cache-control': 'public, max-age=31536000, immutable' });
  const assets = new Map<string, Promise<Asset | null>>();
  let realRoot: Promise<string> | null = null;

  async function load(relative: string): Promise<Asset | null> {
    const kind = TYPES[path.extname(relative).toLowerCase()];
    if (!kind) return null;
    realRoot ??= realpath(root);
    const base = await realRoot;
    let file: string;
    try {
      file = await realpath(path.join(base, relative));
    } catch {
      return null; // not there: Next answers (its 404)
    }
    // Only files under the build's static folder, whatever the path says.
    if (!file.startsWith(base + path.sep)) return null;
    const identity = await readFile(file);
    if (!kind.compress) return { type: kind.type, identity, br: null, gzip: null };
    const [br, gz] = await Promise.all([
      brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
      gzipped(identity, { level: 9 }),
    ]);
    return { type: kind.type, identity, br, gzip: gz };
  }

  function asset(relative: string): Promise<Asset | null> {
    let loading = assets.get(relative);
    if (!loading) {
      loading = load(relative).catch(() => null);
      assets.set(relative, loading);
      // A file missing now may be there later (a build written beside a running server): not kept.
      void loading.then((found) => {
        if (!found) assets.delete(relative);
      });
    }
    return loading;
  }

  return {
    async serve(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const pathname = (req.url ?? '').split('?')[0]!;
      if (!pathname.startsWith(STATIC_PREFIX)) return false;
      let relative: string;
      try {
        relative = decodeURIComponent(pathname.slice(STATIC_PREFIX.length));
      } catch {
        return false;
      }
      if (relative.includes('\0') || relative.split('/').some((part) => part === '..' || part === '')) return false;
      const found = await asset(relative);
      if (!found) return false;
      const encoding = encodingFor(req, found);
      const body = encoding === 'br' ? found.br! : encoding === 'gzip' ? found.gzip! : found.identity;
      for (const [name, value] of headers) res.setHeader(name, value);
      res.setHeader('content-type', found.type);
      res.setHeader('content-length', body.length);
      if (found.br || found.gzip) res.setHeader('vary', 'Accept-Encoding');
      if (encoding) res.setHeader('content-encoding', encoding);
      res.writeHead(200);
      res.end(req.method === 'HEAD' ? undefined : body);
      return true;
    },
    async warm() {
      const files = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
      for (const entry of files) {
        if (!entry.isFile()) continue;
        const relative = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
        await asset(relative);
      }
    },
  };
}
