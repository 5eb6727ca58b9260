// lib/ in floors: a folder imports only from folders on floors below its own (the README's
// "Where things are"), so each can be read knowing only what is under it, and no loop of
// folders can form. Every import counts here, type-only and import() included.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const LIB = path.resolve(import.meta.dirname);

/** Top floor first. */
const FLOORS: readonly (readonly string[])[] = [
  ['lifecycle'],
  ['realtime'],
  ['routing', 'profile', 'notifications'],
  ['stores'],
  ['api'],
  ['i18n', 'socket'],
  ['firebase', 'session', 'offline', 'outbox', 'drafts', 'security'],
  ['navigation.ts', 'contract', 'config', 'utils', 'storage'],
];
/** Test helpers, used by tests on every floor. */
const BESIDE = new Set(['testing', 'floors.test.ts']);

const floorOf = (room: string) => FLOORS.findIndex((floor) => floor.includes(room));
const roomOf = (file: string) => path.relative(LIB, file).split(path.sep)[0]!;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const SPECIFIER = /(?:from|import)\s*\(?\s*['"]((?:@\/lib\/|\.\.?\/)[^'"]+)['"]/g;

function importedRooms(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(SPECIFIER)].map(([, specifier]) => {
    const target = specifier!.startsWith('@/lib/') ? path.join(LIB, specifier!.slice('@/lib/'.length)) : path.resolve(path.dirname(file), specifier!);
    const room = roomOf(target);
    return room === 'navigation' ? 'navigation.ts' : room;
  });
}

describe('lib/ floors', () => {
  const files = sourceFiles(LIB).filter((file) => !BESIDE.has(roomOf(file)));

  it('places every folder on a floor', () => {
    const rooms = new Set(files.map(roomOf));
    expect([...rooms].filter((room) => floorOf(room) === -1)).toEqual([]);
  });

  it('has no import from a folder on the same floor or above', () => {
    const upward = files.flatMap((file) =>
      importedRooms(file)
        .filter((room) => room !== roomOf(file) && !BESIDE.has(room) && floorOf(room) <= floorOf(roomOf(file)))
        .map((room) => `${path.relative(LIB, file)} → ${room}`),
    );
    expect(upward).toEqual([]);
  });
});
