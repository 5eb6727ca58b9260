import { randomUUID } from 'node:crypto';
import { deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth, type DecodedIdToken } from 'firebase-admin/auth';

/** What a verified ID token says about its user: the only profile facts the server can trust. */
interface IdTokenClaims {
  uid: string;
  /** null when the account has no email (phone, anonymous, some GitHub users). */
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
}

/** A verified ID token's claims, and whether Firebase also confirmed it is not revoked. */
export interface VerifiedIdToken extends IdTokenClaims {
  /**
   * False when the revocation check could not be made (Firebase unreachable, no service account):
   * the signature and expiry were still checked, so sign-in goes on, with a warning logged.
   */
  revocationChecked: boolean;
  /** Why the revocation check could not be made, when it could not. */
  revocationError?: unknown;
}

/** What Firebase says about an account now; rejects when Firebase cannot be asked. */
type AccountStatus = 'active' | 'disabled' | 'deleted';

export interface FirebaseTokenVerifier {
  /**
   * Resolves the token's claims, checking that it was not revoked and its account is not disabled;
   * rejects with InvalidIdTokenError when the token is not acceptable.
   */
  verifyIdToken(idToken: string): Promise<VerifiedIdToken>;
  /** The account's state (server/auth/account-check.ts asks it every few minutes per user). */
  accountStatus(uid: string): Promise<AccountStatus>;
  /** Releases SDK resources; called by the server's close(). */
  close?(): Promise<void>;
}

/**
 * The token itself is bad (garbage, expired, wrong project, bad signature): a 400 naming id_token,
 * not a 500. The message completes "id_token: …".
 */
export class InvalidIdTokenError extends Error {
  override name = 'InvalidIdTokenError';
}

// firebase-admin reports every malformed or mis-signed token as argument-error.
const NOT_VALID = 'is not a valid Firebase ID token for this app.';
const TOKEN_PROBLEMS = new Map([
  ['auth/argument-error', NOT_VALID],
  ['auth/invalid-argument', NOT_VALID],
  ['auth/invalid-id-token', NOT_VALID],
  ['auth/id-token-expired', 'has expired; sign in again.'],
  ['auth/id-token-revoked', 'has been revoked; sign in again.'],
  ['auth/user-disabled', 'belongs to a disabled account.'],
  // The emulator looks every token's user up; a deleted account's token is no longer valid.
  ['auth/user-not-found', 'belongs to an account that no longer exists.'],
]);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function toClaims(decoded: DecodedIdToken): IdTokenClaims {
  return {
    uid: decoded.uid,
    email: text(decoded.email),
    emailVerified: decoded.email_verified === true,
    name: text(decoded.name),
    picture: text(decoded.picture),
  };
}

export interface FirebaseVerifierOptions {
  projectId: string;
  /** host:port of the Auth emulator; its tokens are unsigned, so config refuses it in production. */
  authEmulatorHost?: string;
}

export function createFirebaseVerifier(options: FirebaseVerifierOptions): FirebaseTokenVerifier {
  // firebase-admin reads the emulator host only from process.env, for every app in the process, so a
  // real verifier created after an emulator one would silently accept unsigned tokens: refuse to mix.
  const processEmulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST || undefined;
  if (processEmulatorHost && processEmulatorHost !== options.authEmulatorHost) {
    throw new Error(
      `FIREBASE_AUTH_EMULATOR_HOST=${processEmulatorHost} is already set in this process, so firebase-admin ` +
        `would accept unsigned emulator tokens; refusing to create a verifier for ` +
        `${options.authEmulatorHost ? `the emulator at ${options.authEmulatorHost}` : 'real Firebase ID tokens'}.`,
    );
  }
  if (options.authEmulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = options.authEmulatorHost;
  // A unique name lets several servers (tests) live in one process without clashing.
  const app = initializeApp({ projectId: options.projectId }, `parley-${randomUUID()}`);
  const auth = getAuth(app);

  const verify = async (idToken: string, checkRevoked: boolean) => {
    try {
      return toClaims(await auth.verifyIdToken(idToken, checkRevoked));
    } catch (error) {
      const problem = TOKEN_PROBLEMS.get(errorCode(error) ?? '');
      if (problem) throw new InvalidIdTokenError(problem);
      throw error;
    }
  };

  return {
    async verifyIdToken(idToken) {
      try {
        // checkRevoked: Firebase is asked whether the token was revoked or its account disabled.
        return { ...(await verify(idToken, true)), revocationChecked: true };
      } catch (error) {
        if (error instanceof InvalidIdTokenError) throw error;
        // Firebase could not be asked (outage, no service account): a sign-in must not depend on
        // that lookup. The signature and expiry are checked locally.
        return { ...(await verify(idToken, false)), revocationChecked: false, revocationError: error };
      }
    },
    async accountStatus(uid) {
      try {
        return (await auth.getUser(uid)).disabled ? 'disabled' : 'active';
      } catch (error) {
        if (errorCode(error) === 'auth/user-not-found') return 'deleted';
        throw error;
      }
    },
    close: () => deleteApp(app),
  };
}
