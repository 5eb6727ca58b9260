// Session actions for the sign-in flow and the sign-out button (docs/CLIENT-RULES.md, "Session").
import type { AuthorizeResponse } from '@/lib/contract';
import { logout } from '@/lib/api/accounts';
import { followUserLanguage } from './user-language';
import { navigate } from '@/lib/navigation';
import { startMessagingSessionSoon } from '@/lib/realtime/session-start';
import { publishUser } from '@/lib/stores/session-store';
import { signOut } from '@/lib/session/sign-out';
import { storeLocale, storeToken } from '@/lib/session/storage';

export { signOut };

/** After a successful sign-in: token, locale, socket (with its session), then the published user. */
export function completeSignIn(response: AuthorizeResponse): void {
  storeToken(response.token);
  storeLocale(response.user.language);
  startMessagingSessionSoon(response.user.id);
  // The user's saved language is shown from now on (stored as locale just above).
  followUserLanguage();
  publishUser(response.user);
}

/**
 * The sign-out button: revoke the server session first, while the token can still authorize the
 * call. Its failure is already reported by the API client and must not keep the user signed in.
 */
export async function userSignOut(): Promise<void> {
  try {
    await logout();
  } catch {
    // Reported by the client's error hook; signing out locally is what matters now.
  }
  signOut();
  navigate('/account');
}
