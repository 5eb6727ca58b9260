// A folder's rooms (its top-level folders and files) in floors: a room imports only from rooms on
// floors below its own, so each can be read knowing only what is under it, and no loop of rooms
// can form. Every import counts, type-only and import() included; tests are left out (a test may
// reach anything). lib/floors.test.ts and server/floors.test.ts hold their folders to it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
const SPECIFIER = /(?:from|import)\s*\(?\s*['"]((?:@\/|\.\.?\/)[^'"]+)['"]/g;

export interface FloorPlan {
  /** The folder, from the repository's root ('lib', 'server'). */
  root: string;
  /** Rooms by floor, top floor first; a file room by its name with extension. */
  floors: readonly (readonly string[])[];
  /** Rooms of test helpers, which any room's tests use and no product room may import. */
  beside?: readonly string[];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(tsx?|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The room a path lies in: its first segment under `rootDir`, a bare module name given its file's. */
function roomOf(rootDir: string, target: string): string | null {
  const relative = path.relative(rootDir, target);
  if (relative.startsWith('..')) return null;
  const [first, ...rest] = relative.split(path.sep);
  if (rest.length > 0 || existsSync(path.join(rootDir, first!))) return first!;
  return /\.(tsx?|mjs)$/.test(first!) ? first! : `${first}.ts`;
}

/** Rooms no floor names, and every import from a room on the same floor or above ("file → room"). */
export function checkFloors({ root, floors, beside = [] }: FloorPlan): { unplaced: string[]; upward: string[] } {
  const rootDir = path.join(REPO_ROOT, root);
  const floorOf = (room: string) => floors.findIndex((floor) => floor.includes(room));
  const files = sourceFiles(rootDir).filter((file) => !beside.includes(roomOf(rootDir, file)!));
  const unplaced = [...new Set(files.map((file) => roomOf(rootDir, file)!))].filter((room) => floorOf(room) === -1);
  const upward = files.flatMap((file) => {
    const own = roomOf(rootDir, file)!;
    return [...readFileSync(file, 'utf8').matchAll(SPECIFIER)]
      .map(([, specifier]) => roomOf(rootDir, specifier!.startsWith('@/') ? path.join(REPO_ROOT, specifier!.slice(2)) : path.resolve(path.dirname(file), specifier!)))
      .filter((room): room is string => room !== null && room !== own && (beside.includes(room) || floorOf(room) <= floorOf(own)))
      .map((room) => `${path.relative(rootDir, file)} → ${room}`);
  });
  return { unplaced, upward };
}
