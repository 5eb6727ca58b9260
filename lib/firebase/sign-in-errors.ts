// Sign-in failures in words; apart from sign-in.ts so the sign-in page has them without loading it.

const friendlyFirebaseErrors: Record<string, string> = {
  'auth/popup-closed-by-user': 'The sign-in window was closed before signing in.',
  'auth/cancelled-popup-request': 'The sign-in window was closed before signing in.',
  'auth/popup-blocked': 'Your browser blocked the sign-in window. Allow pop-ups for this site and try again.',
  'auth/account-exists-with-different-credential':
    'An account already exists with this email under another provider. Sign in with that provider.',
  'auth/network-request-failed': 'Could not reach the sign-in service. Check your connection and try again.',
};

/** Firebase errors carry a code; HTTP errors were already mapped by the API client. */
export function signInErrorMessage(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && friendlyFirebaseErrors[code]) return friendlyFirebaseErrors[code];
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}
