// Kept apart from session.ts so the HTTP client can sign out on 401 without importing the API.
import { disconnectSocket } from '@/lib/socket/socket-service';
import { clearToken } from './storage';

/**
 * SPEC §4: sign-out removes only the stored token; the locale and the published user stay.
 * The socket goes too, since its credential is gone.
 */
export function signOut(): void {
  clearToken();
  disconnectSocket();
}
