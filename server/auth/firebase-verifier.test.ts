import { afterEach, describe, expect, it, vi } from 'vitest';
import { EMULATOR_HOST, EMULATOR_PROJECT_ID, emulatorSignIn, emulatorSignInAnonymously } from '../test/emulator';
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
    });
  });

  it('returns nulls for an account without a profile', async () => {
    const account = await emulatorSignInAnonymously();
    expect(await verifier(EMULATOR_HOST).verifyIdToken(account.idToken)).toEqual({
      uid: account.uid,
      email: null,
      emailVerified: false,
      name: null,
      picture: null,
    });
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
