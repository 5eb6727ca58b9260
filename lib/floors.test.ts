// lib/ in floors (testing/floors.ts; the README's "Where things are"): the session's lifecycle on
// top, the wire contract and storage at the ground.
import { expect, it } from 'vitest';
import { checkFloors } from '@/testing/floors';

it('lib/: every folder on a floor, no import from its own floor or above', () => {
  const { unplaced, upward } = checkFloors({
    root: 'lib',
    floors: [
      ['lifecycle'],
      ['realtime'],
      ['routing', 'profile', 'notifications'],
      ['stores'],
      ['api'],
      ['i18n', 'socket'],
      ['firebase', 'session', 'offline', 'outbox', 'drafts', 'security'],
      ['navigation.ts', 'contract', 'config', 'utils', 'storage'],
    ],
    beside: ['testing', 'floors.test.ts'],
  });
  expect(unplaced).toEqual([]);
  expect(upward).toEqual([]);
});
