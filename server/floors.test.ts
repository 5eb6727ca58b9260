// server/ in floors (testing/floors.ts): the process entry on top, the database under what uses
// it, logging at the ground.
import { expect, it } from 'vitest';
import { checkFloors } from '../testing/floors';

it('server/: every room on a floor, no import from its own floor or above', () => {
  const { unplaced, upward } = checkFloors({
    root: 'server',
    floors: [
      ['main.ts'],
      ['app.ts'],
      ['http', 'in-flight.ts', 'migrate.ts', 'moderation'],
      ['config.ts', 'realtime'],
      ['auth', 'env-values.ts', 'push', 'readiness.ts', 'storage'],
      ['db'],
      ['security'],
      ['logging', 'validation.ts', 'with-timeout.ts'],
    ],
    beside: ['test', 'security-tests', 'floors.test.ts'],
  });
  expect(unplaced).toEqual([]);
  expect(upward).toEqual([]);
});
