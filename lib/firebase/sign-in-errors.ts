// Every way a sign-in can fail, as the kind of failure whose sentence the sign-in screen shows in
// the reader's language: Firebase's own errors (by their code) and our server's answer to
// authorize (by its status). Apart from sign-in.ts, since the flow may be what failed to load;
// the sign-in page loads it when a sign-in fails, and imports nothing of the API client. Firebase's
// messages ("Firebase: Error (auth/internal-error).") are English and name codes: they go to the
// console, never on screen.

/** The sentences, under `signInErrors` in the sign-in screen's texts (en-sign-in.ts, es-sign-in.ts, fr-sign-in.ts). */
export const SIGN_IN_FAILURES = [
  'popupClosed',
  'popupBlocked',
  'popupInterrupted',
  'network',
  'accountExists',
  'tooManyRequests',
  'serviceTrouble',
  'providerDisabled',
  'userDisabled',
  'unavailable',
  'unauthorizedDomain',
  'storageBlocked',
  'deactivated',
  'generic',
] as const;
export type SignInFailure = (typeof SIGN_IN_FAILURES)[number];

/** Firebase Auth's codes a person can meet in a popup sign-in (firebase/auth's AuthErrorCodes). */
const FIREBASE_CODES: Record<string, SignInFailure> = {
  'auth/popup-closed-by-user': 'popupClosed',
  'auth/user-cancelled': 'popupClosed',
  'auth/redirect-cancelled-by-user': 'popupClosed',
  'auth/popup-blocked': 'popupBlocked',
  'auth/cancelled-popup-request': 'popupInterrupted',
  'auth/network-request-failed': 'network',
  'auth/timeout': 'network',
  'auth/account-exists-with-different-credential': 'accountExists',
  'auth/credential-already-in-use': 'accountExists',
  'auth/email-already-in-use': 'accountExists',
  'auth/too-many-requests': 'tooManyRequests',
  'auth/internal-error': 'serviceTrouble',
  'auth/user-disabled': 'userDisabled',
  'auth/operation-not-allowed': 'providerDisabled',
  'auth/admin-restricted-operation': 'providerDisabled',
  'auth/operation-not-supported-in-this-environment': 'unavailable',
  'auth/unauthorized-domain': 'unauthorizedDomain',
  'auth/web-storage-unsupported': 'storageBlocked',
};

/** Errors that mean no answer came: ky's, fetch's, and a chunk of the sign-in flow that did not load. */
const NO_ANSWER = new Set(['NetworkError', 'TimeoutError', 'TypeError', 'ChunkLoadError']);

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** Which failure `error` is: a Firebase code, our server's status, no answer at all, or none we know. */
export function signInFailure(error: unknown): SignInFailure {
  const code = field(error, 'code');
  if (typeof code === 'string') return FIREBASE_CODES[code] ?? 'generic';
  const status = field(field(error, 'response'), 'status');
  if (typeof status === 'number') {
    // authorize's own refusals: 403 is a deactivated account (docs/DECISIONS.md, "Sign-in").
    if (status === 403) return 'deactivated';
    if (status === 429) return 'tooManyRequests';
    if (status === 408 || status >= 500) return 'serviceTrouble';
    return 'generic';
  }
  const name = field(error, 'name');
  if (typeof name === 'string' && NO_ANSWER.has(name)) return 'network';
  return 'generic';
}
