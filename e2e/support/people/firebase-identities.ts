// The Firebase half of making a test person: a Firebase user and an ID token for it, made by the
// test runner (never by the app's pages). Two ways, picked by E2E_AUTH (docs/TESTING.md):
// - emulator: the Auth emulator's fake Google sign-in (an unsigned JSON credential), the same
//   path the test-account form takes, over the emulator's REST API;
// - custom-token: firebase-admin creates the user and mints a custom token with the runner's
//   service account; identitytoolkit exchanges it for an ID token with the project's web API key.
//   Against the emulator (E2E_AUTH_EMULATOR_HOST set) firebase-admin mints unsigned tokens that
//   the emulator accepts, which is how this path is tested here.
import { randomUUID } from 'node:crypto';
import { applicationDefault, cert, deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth, type Auth } from 'firebase-admin/auth';
import type { E2eTarget } from '../env';

/** How a person's Firebase user signs in again (to clean up after a test revoked its session). */
export type SignInWith = { kind: 'idp'; sub: string } | { kind: 'custom-token' };

export interface Identity {
  uid: string;
  email: string;
  name: string;
  idToken: string;
}

export interface IdentityRequest {
  /** Unique in the run; becomes the uid (custom tokens) or the fake Google subject (emulator). */
  key: string;
  name: string;
  email: string;
}

export class FirebaseIdentities {
  private admin: { app: App; auth: Auth } | null = null;
  private readonly toolkit: string;

  constructor(private readonly target: E2eTarget) {
    this.toolkit = target.emulatorHost
      ? `http://${target.emulatorHost}/identitytoolkit.googleapis.com/v1`
      : 'https://identitytoolkit.googleapis.com/v1';
  }

  /** A new Firebase user, signed in; `signInWith` is what signInAgain needs later. */
  async create(request: IdentityRequest): Promise<Identity & { signInWith: SignInWith }> {
    if (this.target.auth === 'emulator') {
      const signInWith = { kind: 'idp', sub: request.key } as const;
      return { ...(await this.signInWithIdp(signInWith.sub, request)), signInWith };
    }
    await this.auth().createUser({ uid: request.key, email: request.email, displayName: request.name, emailVerified: true });
    return { ...(await this.signInWithCustomToken(request.key, request)), signInWith: { kind: 'custom-token' } };
  }

  /** Signs an existing person's Firebase user in again. */
  signInAgain(uid: string | null, signInWith: SignInWith, profile: { name: string; email: string }): Promise<Identity> {
    if (signInWith.kind === 'idp') return this.signInWithIdp(signInWith.sub, profile);
    if (!uid) throw new Error('A custom-token person needs its uid.');
    return this.signInWithCustomToken(uid, profile);
  }

  /** Deletes the Firebase users; those already gone count as deleted. */
  async deleteUsers(uids: string[]): Promise<void> {
    for (let start = 0; start < uids.length; start += 1000) {
      const result = await this.auth().deleteUsers(uids.slice(start, start + 1000));
      const failed = result.errors.filter((error) => error.error.code !== 'auth/user-not-found');
      if (failed.length > 0) {
        throw new Error(`Deleting Firebase users failed: ${failed.map((error) => error.error.message).join('; ')}`);
      }
    }
  }

  async close(): Promise<void> {
    if (this.admin) await deleteApp(this.admin.app);
    this.admin = null;
  }

  /** The fake Google credential of the emulator; the test-account form builds the same shape. */
  private signInWithIdp(sub: string, profile: { name: string; email: string }): Promise<Identity> {
    const credential = JSON.stringify({ sub, email: profile.email, email_verified: true, name: profile.name });
    return this.call('accounts:signInWithIdp', {
      postBody: `id_token=${encodeURIComponent(credential)}&providerId=google.com`,
      requestUri: this.target.baseURL,
      returnSecureToken: true,
      returnIdpCredential: true,
    }, profile);
  }

  private async signInWithCustomToken(uid: string, profile: { name: string; email: string }): Promise<Identity> {
    const token = await this.auth().createCustomToken(uid);
    // Its answer names no user: the token's uid is the one.
    return this.call('accounts:signInWithCustomToken', { token, returnSecureToken: true }, profile, uid);
  }

  private async call(method: string, payload: unknown, profile: { name: string; email: string }, knownUid?: string): Promise<Identity> {
    const response = await fetch(`${this.toolkit}/${method}?key=${encodeURIComponent(this.target.firebaseApiKey)}`, {
      method: 'POST',
      // A web API key restricted to the site's referrers accepts the runner as the site.
      headers: { 'content-type': 'application/json', referer: `${this.target.baseURL}/` },
      body: JSON.stringify(payload),
    });
    const body = (await response.json().catch(() => ({}))) as { idToken?: string; localId?: string; error?: { message?: string } };
    const uid = body.localId ?? knownUid;
    if (!response.ok || !body.idToken || !uid) {
      throw new Error(`Firebase ${method} failed (${response.status}): ${body.error?.message ?? 'no ID token in the answer'}`);
    }
    return { uid, email: profile.email, name: profile.name, idToken: body.idToken };
  }

  private auth(): Auth {
    if (this.admin) return this.admin.auth;
    const emulatorHost = this.target.emulatorHost ?? undefined;
    // firebase-admin reads the emulator host from the process's environment only; a stray one in the
    // shell would send a real project's users to an emulator (or the reverse), so refuse to guess.
    const inherited = process.env.FIREBASE_AUTH_EMULATOR_HOST || undefined;
    if (inherited && inherited !== emulatorHost) {
      throw new Error(`FIREBASE_AUTH_EMULATOR_HOST=${inherited} is set, but this run targets ${emulatorHost ?? 'a real Firebase project'}.`);
    }
    if (emulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;
    // The emulator needs no credential (it accepts unsigned custom tokens); a real project, the runner's.
    const options = emulatorHost
      ? { projectId: this.target.firebaseProjectId }
      : {
          projectId: this.target.firebaseProjectId,
          credential: this.target.serviceAccountFile ? cert(this.target.serviceAccountFile) : applicationDefault(),
        };
    const app = initializeApp(options, `e2e-${randomUUID()}`);
    this.admin = { app, auth: getAuth(app) };
    return this.admin.auth;
  }
}
