// A seeded generator (mulberry32): the same FAULTS_SEED gives the same recipients, drops and pacing.
import { mulberry32 } from '../server/test/fuzz/prng';

export type Random = () => number;

/** The fuzz test's generator, so both suites replay the same way. */
export const seededRandom: (seed: number) => Random = mulberry32;

export const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** `count` distinct items, in random order. */
export function sample<T>(random: Random, items: readonly T[], count: number): T[] {
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, count);
}
