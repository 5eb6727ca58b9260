// The modules a file pulls in at load time: static imports and re-exports followed through the
// project ('@/…' and relative paths), type-only ones and dynamic import() skipped, packages named.
// What the bundler puts in a page's first load is this graph (the first-load tests check it).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx'];
const STATIC_IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;

function resolveLocal(specifier: string, from: string): string | null {
  const base = specifier.startsWith('@/') ? path.join(ROOT, specifier.slice(2)) : path.resolve(path.dirname(from), specifier);
  if (/\.(css|svg|json)$/.test(base)) return null;
  for (const candidate of [base, ...EXTENSIONS.map((extension) => base + extension)]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  throw new Error(`cannot resolve ${specifier} from ${from}`);
}

export interface ImportGraph {
  /** Project files, relative to the repository. */
  files: Set<string>;
  /** Packages by name ('firebase', 'next', '@scope/name'). */
  packages: Set<string>;
}

export function staticImportGraph(...entries: string[]): ImportGraph {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = entries.map((entry) => path.join(ROOT, entry));
  while (queue.length > 0) {
    const file = queue.pop()!;
    const relative = path.relative(ROOT, file);
    if (files.has(relative)) continue;
    files.add(relative);
    for (const [, typeOnly, specifier] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (typeOnly || !specifier) continue;
      if (specifier.startsWith('@/') || specifier.startsWith('.')) {
        const resolved = resolveLocal(specifier, file);
        if (resolved) queue.push(resolved);
      } else {
        const parts = specifier.split('/');
        packages.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
      }
    }
  }
  return { files, packages };
}
