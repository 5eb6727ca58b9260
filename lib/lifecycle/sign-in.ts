import type { SocialType } from '@/lib/contract';
import { authorize } from '@/lib/api/accounts';
import { currentLanguage } from '@/lib/i18n/i18n';
import { completeSignIn } from './session';
import type { FirebaseIdentity } from '@/lib/firebase/firebase-client';

// The sign-in page imports this module only when a sign-in starts (with the API client, the
// socket and the stores it needs); Firebase itself comes a step later, in firebase-client.

export type SignInMethod =
  | { kind: 'provider'; socialType: SocialType }
  | { kind: 'test-account'; displayName: string; email: string };

const loadFirebase = () => import('@/lib/firebase/firebase-client');

/** Firebase proves who the user is; our server then issues the session (docs/CLIENT-RULES.md). */
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
    // A new account starts in the language this screen is shown in; an existing one keeps its own.
    language: currentLanguage(),
  });
  completeSignIn(response);
}
