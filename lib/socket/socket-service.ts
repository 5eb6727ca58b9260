// The one Socket.IO client (SPEC §7): init/send/follow/read out; message_count/message/followed
// and our messaging events in. The counters land in their store here; the rest reaches the stores
// through subscriptions (lib/realtime/wire-stores.ts). Reconnection uses the library defaults (§9).
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { errorMessage } from '@/lib/api/errors';
import { publicConfig } from '@/lib/config/public';
import type {
  Ack,
  ClientToServerEvents,
  ConversationReadPayload,
  FollowPayload,
  FollowedPayload,
  HandshakeAuth,
  MessageCountPayload,
  MessagePayload,
  ReadPayload,
  SafetyChange,
  SendPayload,
  ServerToClientEvents,
  SyncPayload,
  SyncResult,
} from '@/lib/contract';
import { getStoredToken } from '@/lib/session/storage';
import { useConnectionStore } from '@/lib/stores/connection-store';
import { useCounterStore } from '@/lib/stores/counter-store';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type SocketOptionsInput = Partial<ManagerOptions & SocketOptions>;
/** Builds the socket; injectable so tests can drive a fake one. */
export type SocketFactory = (url: string | undefined, options: SocketOptionsInput) => ClientSocket;

export type MessageListener = (message: MessagePayload) => void;
/** SPEC §4: a followed event notifies subscribers with the value false. */
export type FollowedListener = (value: false) => void;
export type FollowChangeListener = (payload: FollowedPayload) => void;
export type ConversationReadListener = (payload: ConversationReadPayload) => void;
export type ConnectListener = () => void;
export type SafetyChangeListener = (change: SafetyChange) => void;

export interface SocketService {
  /** Records the user id, connects if needed and sends `init`; `init` is sent again on every reconnect. */
  initSocket(id: number): void;
  disconnectSocket(): void;
  sendMessage(payload: SendPayload): Promise<Ack<MessagePayload>>;
  followUser(payload: FollowPayload): Promise<Ack<FollowedPayload>>;
  /** Marks the conversation with `user_id` read; the server then sends message_count everywhere. */
  readConversation(payload: ReadPayload): Promise<Ack<MessageCountPayload>>;
  /** `message`: the unread count has already gone up by one (SPEC §4). */
  onMessage(listener: MessageListener): () => void;
  /** `followed`, as SPEC §4 has it: subscribers get `false`. */
  onFollowed(listener: FollowedListener): () => void;
  /** `followed` with its payload, for the follow state the UI shows (onFollowed carries none). */
  onFollowChange(listener: FollowChangeListener): () => void;
  /** `message_sent`: the user's own message from another device; never unread. */
  onMessageSent(listener: MessageListener): () => void;
  /** `follower`: someone followed or unfollowed the user. */
  onFollower(listener: FollowChangeListener): () => void;
  /** `conversation_read`: another of the user's devices read that conversation. */
  onConversationRead(listener: ConversationReadListener): () => void;
  /** `safety_changed`: a block, a mute or who may message the user changed on one of their devices. */
  onSafetyChange(listener: SafetyChangeListener): () => void;
  /** The account's messages after a seq (catch-up; lib/realtime/catch-up.ts). */
  syncMessages(payload: SyncPayload): Promise<Ack<SyncResult>>;
  /** Connected and the server has acknowledged this connection's init: other events may go out. */
  isReady(): boolean;
  /**
   * Every established connection once the server has acknowledged its init: the moment to catch
   * up on missed messages and send what is waiting in the outbox.
   */
  onConnect(listener: ConnectListener): () => void;
}

export interface SocketServiceOptions {
  /** How long send/follow wait for the server's ack. */
  ackTimeoutMs?: number;
}

const defaultFactory: SocketFactory = (url, options) => (url === undefined ? io(options) : io(url, options));

const NOT_CONNECTED = 'Not connected.';

export function createSocketService(
  factory: SocketFactory = defaultFactory,
  { ackTimeoutMs = 10_000 }: SocketServiceOptions = {},
): SocketService {
  let socket: ClientSocket | null = null;
  const messageListeners = new Set<MessageListener>();
  const followedListeners = new Set<FollowedListener>();
  const followChangeListeners = new Set<FollowChangeListener>();
  const messageSentListeners = new Set<MessageListener>();
  const followerListeners = new Set<FollowChangeListener>();
  const conversationReadListeners = new Set<ConversationReadListener>();
  const connectListeners = new Set<ConnectListener>();
  const safetyChangeListeners = new Set<SafetyChangeListener>();
  const counters = () => useCounterStore.getState();
  const connection = () => useConnectionStore.getState();

  // The connection whose init the server acknowledged; events other than init wait for it.
  let readyConnection: ClientSocket | null = null;
  let browserOffline = false;

  function sendInit(target: ClientSocket): void {
    const id = counters().socketUserId;
    if (!id) return;
    // The server refuses other events until init is done: listeners hear of the connection only
    // once it is acknowledged (a refused init means the session is ending; the guard handles it).
    target.emit('init', { id }, (ack) => {
      if (!target.connected || counters().socketUserId !== id || !('data' in ack)) return;
      readyConnection = target;
      notify(connectListeners);
    });
  }

  function createSocket(): ClientSocket {
    const created = factory(publicConfig.socketUrl, {
      autoConnect: false,
      ...(publicConfig.socketWebSocketOnly ? { transports: ['websocket'] } : {}),
      // A callback, not a value: every (re)connect must carry the token stored at that moment.
      auth: (callback) => callback({ token: getStoredToken() ?? '' } satisfies HandshakeAuth),
    });

    // init is sent from here rather than from the Manager's 'reconnect' event: 'reconnect' fires
    // before the namespace is connected, and never after a manual reconnect, whereas 'connect'
    // fires exactly once per established connection, so the first connect is never doubled.
    created.on('connect', () => {
      connection().setStatus('connected');
      sendInit(created);
    });
    created.on('disconnect', () => {
      readyConnection = null;
      connection().setStatus(created.active ? 'connecting' : 'disconnected');
    });
    created.on('connect_error', () => connection().setStatus(created.active ? 'connecting' : 'disconnected'));
    created.io.on('reconnect_attempt', (attempt) => connection().setReconnectAttempt(attempt));

    created.on('message_count', ({ count }) => counters().setUnread(count));
    created.on('message', (message) => {
      counters().incrementUnread();
      notify(messageListeners, message);
    });
    created.on('followed', (payload) => {
      notify(followedListeners, false);
      notify(followChangeListeners, payload);
    });
    created.on('message_sent', (message) => notify(messageSentListeners, message));
    created.on('follower', (payload) => notify(followerListeners, payload));
    created.on('conversation_read', (payload) => notify(conversationReadListeners, payload));
    created.on('safety_changed', (change) => notify(safetyChangeListeners, change));
    return created;
  }

  function initSocket(id: number): void {
    const previousId = counters().socketUserId;
    counters().setSocketUserId(id);
    if (!socket) {
      socket = createSocket();
      watchBrowserConnectivity();
    }
    if (socket.connected && previousId === id) return; // init went out when this connection opened
    if (socket.connected) {
      // This connection was authenticated as someone else: the server would refuse the init.
      // Reconnect so the handshake carries the token stored now; its 'connect' sends the init.
      disconnectSocket();
    }
    if (browserOffline) return; // 'online' connects
    if (!socket.active) {
      connection().setStatus('connecting');
      socket.connect();
    }
    // Otherwise a connection attempt is under way and its 'connect' sends init with this id.
  }

  /**
   * The browser knows at once when the network goes (a dead WebSocket takes up to a ping timeout
   * to notice): drop the connection then, so sends queue in the outbox instead of vanishing into
   * a dead transport, and reconnect as soon as the network is back.
   */
  function watchBrowserConnectivity(): void {
    if (typeof window === 'undefined') return;
    window.addEventListener('offline', () => {
      browserOffline = true;
      if (socket?.active) disconnectSocket();
    });
    window.addEventListener('online', () => {
      browserOffline = false;
      const id = counters().socketUserId;
      if (socket && id && !socket.active) {
        connection().setStatus('connecting');
        socket.connect();
      }
    });
  }

  function disconnectSocket(): void {
    if (!socket) return;
    readyConnection = null;
    socket.disconnect();
    // disconnect() keeps queued emits; they must not go out later under the next user's token.
    socket.sendBuffer = [];
    connection().setStatus('disconnected');
  }

  // Callers get an Ack either way: transport failures become the same error shape the server uses.
  async function withAck<T>(emit: (target: ClientSocket) => Promise<unknown>): Promise<Ack<T>> {
    if (!socket?.active) return { error: { msg: NOT_CONNECTED } };
    try {
      return (await emit(socket)) as Ack<T>;
    } catch (error) {
      return { error: { msg: errorMessage(error) } };
    }
  }

  return {
    initSocket,
    disconnectSocket,
    sendMessage: (payload) =>
      withAck<MessagePayload>((target) => target.timeout(ackTimeoutMs).emitWithAck('send', payload)),
    followUser: (payload) =>
      withAck<FollowedPayload>((target) => target.timeout(ackTimeoutMs).emitWithAck('follow', payload)),
    readConversation: (payload) =>
      withAck<MessageCountPayload>((target) => target.timeout(ackTimeoutMs).emitWithAck('read', payload)),
    syncMessages: (payload) =>
      withAck<SyncResult>((target) => target.timeout(ackTimeoutMs).emitWithAck('sync', payload)),
    isReady: () => readyConnection !== null && readyConnection === socket && socket.connected,
    onMessage: (listener) => subscribe(messageListeners, listener),
    onFollowed: (listener) => subscribe(followedListeners, listener),
    onFollowChange: (listener) => subscribe(followChangeListeners, listener),
    onMessageSent: (listener) => subscribe(messageSentListeners, listener),
    onFollower: (listener) => subscribe(followerListeners, listener),
    onConversationRead: (listener) => subscribe(conversationReadListeners, listener),
    onConnect: (listener) => subscribe(connectListeners, listener),
    onSafetyChange: (listener) => subscribe(safetyChangeListeners, listener),
  };
}

function subscribe<L>(listeners: Set<L>, listener: L): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

function notify<A extends unknown[]>(listeners: Set<(...args: A) => void>, ...args: A): void {
  // A copy, so a listener that unsubscribes itself does not disturb the others.
  for (const listener of [...listeners]) listener(...args);
}

/** The application's socket; nothing connects until the first initSocket. */
export const socketService: SocketService = createSocketService();
export const {
  initSocket,
  disconnectSocket,
  sendMessage,
  followUser,
  readConversation,
  syncMessages,
  isReady,
  onMessage,
  onFollowed,
  onFollowChange,
  onMessageSent,
  onFollower,
  onConversationRead,
  onConnect,
} = socketService;
