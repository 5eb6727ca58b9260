// The Firebase SDK is heavy: this module is only ever imported dynamically, when the
// user starts a sign-in (see sign-in.ts), so it never weighs on the first load of /account.
import { initializeApp, type FirebaseApp } from 'firebase/app';
import {
  browserPopupRedirectResolver,
  connectAuthEmulator,
  GithubAuthProvider,
  GoogleAuthProvider,
  inMemoryPersistence,
  initializeAuth,
  signInWithCredential,
  signInWithPopup,
  signOut,
  type Auth,
  type AuthProvider,
  type UserCredential,
} from 'firebase/auth';
import type { SocialType } from '@/lib/contract';
import { publicConfig } from '@/lib/config/public';

/** What the server needs from a Firebase sign-in (the authorize request's fields, plus the ID token). */
export interface FirebaseIdentity {
  uid: string;
  displayName: string | null;
  email: string | null;
  photoURL: string | null;
  idToken: string;
}

let auth: Auth | undefined;

function getFirebaseAuth(): Auth {
  if (auth) return auth;
  const app: FirebaseApp = initializeApp(publicConfig.firebase);
  // Our own bearer token is the session; Firebase only proves identity once, so it keeps
  // nothing in IndexedDB between visits.
  auth = initializeAuth(app, {
    persistence: inMemoryPersistence,
    popupRedirectResolver: browserPopupRedirectResolver,
  });
  if (publicConfig.authEmulatorHost) {
    connectAuthEmulator(auth, `http://${publicConfig.authEmulatorHost}`, { disableWarnings: true });
  }
  return auth;
}

const providers: Record<SocialType, () => AuthProvider> = {
  google: () => new GoogleAuthProvider(),
  github: () => new GithubAuthProvider(),
};

async function toIdentity(credential: UserCredential): Promise<FirebaseIdentity> {
  const { user } = credential;
  const identity: FirebaseIdentity = {
    uid: user.uid,
    displayName: user.displayName,
    email: user.email,
    photoURL: user.photoURL,
    idToken: await user.getIdToken(),
  };
  await signOut(getFirebaseAuth());
  return identity;
}

export async function signInWithProvider(socialType: SocialType): Promise<FirebaseIdentity> {
  const auth = getFirebaseAuth();
  return toIdentity(await signInWithPopup(auth, providers[socialType]()));
}

/**
 * Emulator only: signs in as anyone with a fake Google credential, which the Auth emulator
 * accepts unsigned. The same email always maps to the same emulator account.
 */
export async function signInWithTestAccount(displayName: string, email: string): Promise<FirebaseIdentity> {
  // Literal env access: inlined at build time, so without the emulator the rest is dead code.
  if (!process.env.NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST) {
    throw new Error('Test accounts exist only with the Auth emulator.');
  }
  const fakeGoogleIdToken = JSON.stringify({
    sub: `test-${email.toLowerCase()}`,
    email,
    email_verified: true,
    name: displayName,
  });
  const credential = GoogleAuthProvider.credential(fakeGoogleIdToken);
  return toIdentity(await signInWithCredential(getFirebaseAuth(), credential));
}
