// What the rest of the server (its HTTP routes) may ask of the connected sockets: close them,
// tell them something, and have presence follow a change of who may see whom. The realtime layer
// (create-realtime.ts) provides these; app.ts hands them to the routes.
import type { ServerToClientEvents, ServerToClientEvents2 } from '../../lib/contract';

type Payload<Events, E extends keyof Events> = Events[E] extends (...args: infer A) => void ? A : never;

/**
 * The events both socket protocols take in the same shape (the same name and the same payload
 * both ways): what may go to every socket of an account at once. `message`, whose shape protocol 2
 * changes, is not one, so a route cannot send protocol 1's into a protocol 2 room.
 */
type SharedEvent = {
  [E in keyof ServerToClientEvents & keyof ServerToClientEvents2]: [Payload<ServerToClientEvents, E>] extends [Payload<ServerToClientEvents2, E>]
    ? [Payload<ServerToClientEvents2, E>] extends [Payload<ServerToClientEvents, E>]
      ? E
      : never
    : never;
}[keyof ServerToClientEvents & keyof ServerToClientEvents2];

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

/** Events to sockets of given users, on every node: to all of them in a shape both protocols share, or to protocol 2's in its own. */
export interface SocketNotifier {
  notify<E extends SharedEvent>(userIds: number | readonly number[], event: E, ...args: Parameters<ServerToClientEvents[E]>): void;
  /** To the protocol 2 sockets of given users only, in its shapes (ServerToClientEvents2). */
  notifyProtocol2<E extends keyof ServerToClientEvents2>(userIds: number | readonly number[], event: E, ...args: Parameters<ServerToClientEvents2[E]>): void;
  /**
   * To every socket following `subjectId` (presence_subscribe: a conversation with them open, or
   * their row in a list) and to every socket of `userIds`, each socket once.
   */
  notifyWatchers<E extends SharedEvent>(subjectId: number, userIds: readonly number[], event: E, ...args: Parameters<ServerToClientEvents[E]>): void;
}
