import { Auth } from 'firebase-admin/auth';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMULATOR_HOST, EMULATOR_PROJECT_ID, emulatorAdmin, emulatorSignIn, emulatorSignInAnonymously } from '../test/emulator';
import { uniqueProfile } from '../test/helpers';
import { createFirebaseVerifier, type FirebaseTokenVerifier } from './firebase-verifier';

const opened: FirebaseTokenVerifier[] = [];
function verifier(authEmulatorHost?: string): FirebaseTokenVerifier {
  const created = createFirebaseVerifier({ projectId: EMULATOR_PROJECT_ID, authEmulatorHost });
  opened.push(created);
  return created;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((v) => v.close?.()));
  vi.unstubAllEnvs();
});

describe('verifyIdToken', () => {
  it('returns the claims the token carries', async () => {
    const profile = { ...uniqueProfile('Dana'), photoUrl: 'https://example.com/dana.png' };
    const account = await emulatorSignIn(profile);
    expect(await verifier(EMULATOR_HOST).verifyIdToken(account.idToken)).toEqual({
      uid: account.uid,
      email: profile.email,
      emailVerified: true,
      name: 'Dana',
      picture: 'https://example.com/dana.png',
      revocationChecked: true,
    });
  });

  it('asks Firebase whether the token was revoked or its account disabled (checkRevoked)', async () => {
    // The emulator checks revocation whatever the flag says; real Firebase only when asked.
    const calls = vi.spyOn(Auth.prototype, 'verifyIdToken');
    const account = await emulatorSignIn(uniqueProfile('Rex'));
    await verifier(EMULATOR_HOST).verifyIdToken(account.idToken);
    expect(calls).toHaveBeenCalledWith(account.idToken, true);
    calls.mockRestore();
  });

  it('returns nulls for an account without a profile', async () => {
    const account = await emulatorSignInAnonymously();
    expect(await verifier(EMULATOR_HOST).verifyIdToken(account.idToken)).toEqual({
      uid: account.uid,
      email: null,
      emailVerified: false,
      name: null,
      picture: null,
      revocationChecked: true,
    });
  });
});

describe('accountStatus', () => {
  it('tells an active account from a disabled or deleted one', async () => {
    const admin = emulatorAdmin();
    try {
      const [active, disabled, deleted] = await Promise.all([1, 2, 3].map(() => emulatorSignIn(uniqueProfile())));
      await admin.auth.updateUser(disabled!.uid, { disabled: true });
      await admin.auth.deleteUser(deleted!.uid);
      const check = verifier(EMULATOR_HOST);
      expect(await Promise.all([active!, disabled!, deleted!].map((account) => check.accountStatus(account.uid)))).toEqual([
        'active',
        'disabled',
        'deleted',
      ]);
    } finally {
      await admin.close();
    }
  });
});

describe('createFirebaseVerifier', () => {
  it('refuses a real-token verifier while the process points firebase-admin at an emulator', () => {
    vi.stubEnv('FIREBASE_AUTH_EMULATOR_HOST', EMULATOR_HOST);
    expect(() => verifier()).toThrow(
      new RegExp(`FIREBASE_AUTH_EMULATOR_HOST=${EMULATOR_HOST.replaceAll('.', '\\.')} is already set.*real Firebase ID tokens`),
    );
  });

  it('refuses a second, different emulator', () => {
    vi.stubEnv('FIREBASE_AUTH_EMULATOR_HOST', EMULATOR_HOST);
    expect(() => verifier('127.0.0.1:9099')).toThrow(/already set/);
  });

  it('creates a real-token verifier when no emulator is configured, and leaves the env alone', () => {
    vi.stubEnv('FIREBASE_AUTH_EMULATOR_HOST', undefined);
    expect(() => verifier()).not.toThrow();
    expect(process.env.FIREBASE_AUTH_EMULATOR_HOST).toBeUndefined();
  });
});
