import type { SocialType } from '@/lib/contract';
import { authorize } from '@/lib/api/accounts';
import { completeSignIn } from '@/lib/session/session';
import type { FirebaseIdentity } from './firebase-client';

export type SignInMethod =
  | { kind: 'provider'; socialType: SocialType }
  | { kind: 'test-account'; displayName: string; email: string };

const loadFirebase = () => import('./firebase-client');

/** Firebase proves who the user is; our server then issues the session (SPEC §4). */
export async function signIn(method: SignInMethod): Promise<void> {
  const firebase = await loadFirebase();
  const identity: FirebaseIdentity =
    method.kind === 'provider'
      ? await firebase.signInWithProvider(method.socialType)
      : await firebase.signInWithTestAccount(method.displayName, method.email);
  const response = await authorize({
    username: identity.displayName,
    email: identity.email,
    firebase_id: identity.uid,
    social_type: method.kind === 'provider' ? method.socialType : 'google',
    avatar: identity.photoURL,
    id_token: identity.idToken,
  });
  completeSignIn(response);
}

const friendlyFirebaseErrors: Record<string, string> = {
  'auth/popup-closed-by-user': 'The sign-in window was closed before signing in.',
  'auth/cancelled-popup-request': 'The sign-in window was closed before signing in.',
  'auth/popup-blocked': 'Your browser blocked the sign-in window. Allow pop-ups for this site and try again.',
  'auth/account-exists-with-different-credential':
    'An account already exists with this email under another provider. Sign in with that provider.',
  'auth/network-request-failed': 'Could not reach the sign-in service. Check your connection and try again.',
};

/** Firebase errors carry a code; HTTP errors were already mapped by the API client (SPEC §8). */
export function signInErrorMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && friendlyFirebaseErrors[code]) return friendlyFirebaseErrors[code];
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}
