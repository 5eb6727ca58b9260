// What the rest of the server (its HTTP routes) may ask of the connected sockets: close them,
// tell them something, and have presence follow a change of who may see whom. The realtime layer
// (create-realtime.ts) provides these; app.ts hands them to the routes.
import type { ServerToClientEvents } from '../../lib/contract';

/** How the HTTP side closes sockets whose session or account just ended. */
export interface SocketDisconnector {
  disconnectUser(userId: number): void;
  disconnectSession(sessionId: number): void;
}

/** How the HTTP side tells the realtime layer what may change who sees whose presence. */
export interface PresenceSettingListener {
  settingChanged(userId: number, shown: boolean): Promise<void>;
  /** `viewerId` may have lost sight of `subjectId` (a block): checked, and dropped if so, on every node. */
  review(viewerId: number, subjectId: number): Promise<void>;
}

/** Events to sockets of given users, on every node. */
export interface SocketNotifier {
  notify<E extends keyof ServerToClientEvents>(userIds: number | readonly number[], event: E, ...args: Parameters<ServerToClientEvents[E]>): void;
  /**
   * To every socket following `subjectId` (presence_subscribe: a conversation with them open, or
   * their row in a list) and to every socket of `userIds`, each socket once.
   */
  notifyWatchers<E extends keyof ServerToClientEvents>(subjectId: number, userIds: readonly number[], event: E, ...args: Parameters<ServerToClientEvents[E]>): void;
}
