// The e2e suite's people, made and cleaned up against a real server and the Auth emulator, both
// ways: the emulator's fake Google sign-in and firebase-admin custom tokens (which the emulator
// accepts unsigned, standing in for a real project here).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { users } from '../../../server/db/schema';
import { api, authorizeBody, startTestServer, type TestServer } from '../../../server/test/helpers';
import { emulatorSignIn, EMULATOR_PROJECT_ID } from '../../../server/test/emulator';
import { readTarget } from '../env';
import { People, type Claimed, type StorageState } from './people';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ inMemory: true });
});
afterAll(() => server.close());

/** The emulator's record of a Firebase user, or null once it is deleted. */
async function firebaseUser(uid: string): Promise<{ email?: string } | null> {
  const response = await fetch(
    `http://${inject('firebaseAuthEmulatorHost')}/identitytoolkit.googleapis.com/v1/projects/${EMULATOR_PROJECT_ID}/accounts:lookup`,
    { method: 'POST', headers: { authorization: 'Bearer owner', 'content-type': 'application/json' }, body: JSON.stringify({ localId: [uid] }) },
  );
  const body = (await response.json()) as { users?: { email?: string }[] };
  return body.users?.[0] ?? null;
}

for (const auth of ['emulator', 'custom-token'] as const) {
  describe(`E2E_AUTH=${auth}`, () => {
    const target = () =>
      readTarget({
        E2E_BASE_URL: server.url,
        E2E_AUTH: auth,
        E2E_AUTH_EMULATOR_HOST: inject('firebaseAuthEmulatorHost'),
        E2E_PEOPLE: '1',
      });

    it('makes signed-in people the deployment accepts, hands each out once, and cleans every one up', async () => {
      const people = new People(target());
      try {
        const pool = await people.fillPool(1);
        expect(pool.map((person) => person.record.role).sort()).toEqual(['alice', 'bob']);

        const first = await people.claim('alice');
        expect(first.record.source).toBe('pool');
        // The pool had one Alice: the next is made for the test, and so is a role nobody pooled.
        const second = await people.claim('alice');
        expect(second.record.source).toBe('on-demand');
        expect(second.record.key).not.toBe(first.record.key);
        const carol = await people.claim('carol');
        expect(carol.record.name).toMatch(/^Carol /);
        if (auth === 'custom-token') expect(carol.record.uid).toBe(carol.record.key);

        for (const person of [first, second, carol]) await expectSignedIn(person);

        // A form sign-in (the test-account form's fake Google subject) is cleaned up too, and so is
        // a person whose session a test revoked.
        const formEmail = `form-${first.record.key}@example.com`;
        const formAccount = await emulatorSignIn({ email: formEmail, displayName: 'Form Person', sub: `test-${formEmail}` });
        const form = await api<{ user: { id: number } }>(server.url, '/accounts/authorize', {
          method: 'POST',
          json: authorizeBody(formAccount, { username: 'Form Person', email: formEmail }),
        });
        expect(form.status).toBe(200);
        await people.recordFormPerson({ name: 'Form Person', email: formEmail });
        expect((await api(server.url, '/accounts/logout', { method: 'POST', token: first.token })).status).toBe(204);

        const uids = [...pool, second, carol].map((person) => person.record.uid!).concat(formAccount.uid);
        const userIds = [...pool, second, carol].map((person) => person.record.userId).concat(form.body.user.id);
        for (const uid of uids) expect(await firebaseUser(uid)).not.toBeNull();

        const summary = await people.cleanUp();
        expect(summary).toEqual({ cleaned: { pool: 2, 'on-demand': 2, form: 1 }, failures: [] });
        for (const uid of uids) expect(await firebaseUser(uid)).toBeNull();
        const rows = await server.db.select({ isActive: users.isActive }).from(users).where(inArray(users.id, userIds));
        expect(rows).toEqual(userIds.map(() => ({ isActive: false })));
        expect(existsSync(people.dir)).toBe(false);
      } finally {
        await people.close();
      }
    });
  });
}

/** The storageState file holds what the pages store, and the token is a live session of that person. */
async function expectSignedIn(person: Claimed) {
  const state = JSON.parse(await readFile(person.storageStatePath, 'utf8')) as StorageState;
  expect(state).toEqual({
    cookies: [],
    origins: [{ origin: server.url, localStorage: [{ name: 'token', value: person.token }, { name: 'locale', value: 'en' }] }],
  });
  const info = await api<{ id: number; username: string; email: string; is_active: boolean }>(server.url, '/accounts/info', {
    token: person.token,
  });
  expect(info.body).toMatchObject({ id: person.record.userId, username: person.record.name, email: person.record.email, is_active: true });
}
