// Kept apart from session.ts so the HTTP client can sign out on 401 without importing the API.
import { socketService } from '@/lib/socket/socket-service';
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
 * (docs/CLIENT-RULES.md). The socket goes too, since its credential is gone.
 */
export function signOut(): void {
  clearToken();
  socketService.disconnectSocket();
  for (const listener of [...listeners]) listener();
}
