// Starting the messaging session without putting its code on the main area's first screen: the
// list comes over HTTP (list-preload.ts), and the session (the socket's listeners, the outbox,
// catch-up, read marking: docs/DECISIONS.md, "The messaging session after the first screen")
// loads once that screen is painted, as socket.io-client does. The connection waits for it
// (connectAfter), so no event of the connection comes before its listeners; what happens
// meanwhile reaches the page through the connection's catch-up.
import { readNotificationState } from '@/lib/notifications/notification-state';
import { afterFirstScreen } from '@/lib/session/first-screen';
import { onSignOut } from '@/lib/session/sign-out';
import { connectAfter, socketService } from '@/lib/socket/socket-service';

type SessionModule = typeof import('./messaging-session');

let loading: Promise<SessionModule> | null = null;

/** The session's code: loaded once the first screen is painted, or sooner when something asks for it (an Undo, a message sent). */
export function loadMessagingSession(): Promise<SessionModule> {
  return (loading ??= afterFirstScreen().then(() => import('./messaging-session')));
}

/**
 * Initialises the socket with the user's id (docs/CLIENT-RULES.md: the guard's and sign-in's
 * step, before the user is published) and starts their messaging session once its code is in; a
 * sign-out meanwhile starts none.
 */
export function startMessagingSessionSoon(userId: number): void {
  let signedOut = false;
  const stop = onSignOut(() => {
    signedOut = true;
  });
  const started = loadMessagingSession().then((session) => {
    stop();
    if (!signedOut) session.startMessagingSession(userId);
  });
  connectAfter(started);
  socketService.initSocket(userId);
  // What the main area waits for before it opens (the prompt's place), read now, not with the session.
  void readNotificationState(userId);
}
