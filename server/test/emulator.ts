// The Firebase Auth emulator used by the server tests (firebase.test.json: port 9199, so a
// developer's own emulator on 9099 is never touched; TEST_EMULATOR_PORT moves it).
import { randomUUID } from 'node:crypto';
import { deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth, type Auth } from 'firebase-admin/auth';
import { TEST_EMULATOR_HOST, testEmulatorConfig } from '../../scripts/test-emulator.mjs';

export const EMULATOR_HOST = TEST_EMULATOR_HOST;
export const EMULATOR_PROJECT_ID = 'demo-parley';
export const emulatorConfig = testEmulatorConfig;
const EMULATOR_URL = `http://${EMULATOR_HOST}`;
const IDENTITY_TOOLKIT = `${EMULATOR_URL}/identitytoolkit.googleapis.com/v1`;

/**
 * Deletes every account in the emulator project. Only safe while no test is running: in
 * emulator mode firebase-admin looks each ID token's user up, so deleting accounts
 * invalidates the tokens of tests running in parallel files.
 */
export async function clearEmulatorAccounts(): Promise<void> {
  const response = await fetch(`${EMULATOR_URL}/emulator/v1/projects/${EMULATOR_PROJECT_ID}/accounts`, {
    method: 'DELETE',
  });
  if (!response.ok) throw new Error(`clearing emulator accounts failed: ${response.status}`);
}

export interface EmulatorAccount {
  idToken: string;
  uid: string;
  /** The email in the ID token (the emulator lowercases it); null for an account without one. */
  email: string | null;
}

/**
 * Signs in through the emulator's fake Google provider, which accepts an unsigned JSON id_token.
 * The same `sub` always maps to the same Firebase uid, like a real returning Google user.
 */
export async function emulatorSignIn(profile: {
  email: string;
  displayName: string;
  sub?: string;
  photoUrl?: string;
}): Promise<EmulatorAccount> {
  const googleToken = JSON.stringify({
    sub: profile.sub ?? profile.email,
    email: profile.email,
    // Google vouches for its users' addresses, so real Google ID tokens say so too.
    email_verified: true,
    name: profile.displayName,
    ...(profile.photoUrl ? { picture: profile.photoUrl } : {}),
  });
  return identityToolkit('accounts:signInWithIdp', {
    postBody: `id_token=${encodeURIComponent(googleToken)}&providerId=google.com`,
    requestUri: 'http://localhost',
    returnSecureToken: true,
    returnIdpCredential: true,
  });
}

/** An anonymous account: its ID token carries no email, name or picture. */
export function emulatorSignInAnonymously(): Promise<EmulatorAccount> {
  return identityToolkit('accounts:signUp', { returnSecureToken: true });
}

async function identityToolkit(method: string, payload: unknown): Promise<EmulatorAccount> {
  const request = () =>
    fetch(`${IDENTITY_TOOLKIT}/${method}?key=fake-api-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
  // The emulator closes idle keep-alive connections after 5 s; a test process whose event loop was
  // busy longer than that can send on one it is closing ("other side closed"). One fresh try is
  // safe: an IdP credential signs in to the same account again; an anonymous sign-up makes another.
  const response = await request().catch((error: unknown) => {
    if (!(error instanceof TypeError)) throw error;
    return request();
  });
  const body = (await response.json()) as { idToken?: string; localId?: string; email?: string };
  if (!response.ok || !body.idToken || !body.localId) {
    throw new Error(`emulator sign-in failed: ${response.status} ${JSON.stringify(body)}`);
  }
  return { idToken: body.idToken, uid: body.localId, email: body.email || null };
}

/**
 * firebase-admin's Auth on the test emulator, to disable or delete accounts as an administrator
 * would (the emulator needs no credentials). Call close() when done.
 */
export function emulatorAdmin(): { auth: Auth; close(): Promise<void> } {
  process.env.FIREBASE_AUTH_EMULATOR_HOST ??= EMULATOR_HOST;
  if (process.env.FIREBASE_AUTH_EMULATOR_HOST !== EMULATOR_HOST) throw new Error('another Auth emulator is configured in this process');
  const app = initializeApp({ projectId: EMULATOR_PROJECT_ID }, `admin-${randomUUID()}`);
  return { auth: getAuth(app), close: () => deleteApp(app) };
}
