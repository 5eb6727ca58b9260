import { randomUUID } from 'node:crypto';
import { deleteApp, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';

export interface FirebaseTokenVerifier {
  /** Resolves the token's uid; rejects with InvalidIdTokenError when the token is not acceptable. */
  verifyIdToken(idToken: string): Promise<{ uid: string }>;
  /** Releases SDK resources; called by the server's close(). */
  close?(): Promise<void>;
}

/** The token itself is bad (garbage, expired, wrong project, bad signature): a 401, not a 500. */
export class InvalidIdTokenError extends Error {
  override name = 'InvalidIdTokenError';
}

// firebase-admin reports every malformed or mis-signed token as argument-error.
const TOKEN_PROBLEM_CODES = new Set([
  'auth/argument-error',
  'auth/invalid-argument',
  'auth/invalid-id-token',
  'auth/id-token-expired',
  'auth/id-token-revoked',
  'auth/user-disabled',
  // The emulator looks every token's user up; a deleted account's token is no longer valid.
  'auth/user-not-found',
]);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export interface FirebaseVerifierOptions {
  projectId: string;
  /** host:port of the Auth emulator; its tokens are unsigned, so config refuses it in production. */
  authEmulatorHost?: string;
}

export function createFirebaseVerifier(options: FirebaseVerifierOptions): FirebaseTokenVerifier {
  // firebase-admin reads the emulator host from process.env at call time, not from its options.
  if (options.authEmulatorHost) process.env.FIREBASE_AUTH_EMULATOR_HOST = options.authEmulatorHost;
  // A unique name lets several servers (tests) live in one process without clashing.
  const app = initializeApp({ projectId: options.projectId }, `parley-${randomUUID()}`);
  const auth = getAuth(app);

  return {
    async verifyIdToken(idToken) {
      try {
        const decoded = await auth.verifyIdToken(idToken);
        return { uid: decoded.uid };
      } catch (error) {
        const code = errorCode(error);
        if (code && TOKEN_PROBLEM_CODES.has(code)) {
          const expired = code === 'auth/id-token-expired';
          throw new InvalidIdTokenError(expired ? 'The ID token has expired.' : 'The ID token is invalid.');
        }
        throw error;
      }
    },
    close: () => deleteApp(app),
  };
}
