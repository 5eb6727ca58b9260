// Kept apart from the lifecycle's session.ts so the HTTP client can sign out on 401 without
// importing the API. What belongs to the session subscribes (onSignOut): the socket
// (socket-service.ts), the messaging session, the offline snapshot.
import { clearToken } from './storage';

type SignOutListener = () => void;
const listeners = new Set<SignOutListener>();

/**
 * Runs `listener` at every sign-out (button, 401, inactive account), so what belongs to the
 * signed-in user (the messaging session and its caches) goes with the session, however it ends.
 * Returns the function that removes it.
 */
export function onSignOut(listener: SignOutListener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/**
 * Sign-out removes only the stored token; the locale and the published user stay
 * (docs/CLIENT-RULES.md). Then every listener: the socket goes first (it subscribed when its
 * module loaded), since its credential is gone.
 */
export function signOut(): void {
  clearToken();
  for (const listener of [...listeners]) listener();
}
