// The one Socket.IO client: transport only. It connects as a user, sends `init` on every
// connection, emits the client's events with their acks, and passes every server event on to
// whoever listens through one typed `on`. It knows no store and applies no product rule: what an
// event means (an unread count going up, a thread growing) is decided by the messaging session
// (lib/realtime/messaging-session.ts). Reconnection keeps socket.io-client's own defaults.
//
// socket.io-client itself (about 13 KiB gzip) is loaded by the first initSocket once the main
// area's first screen is painted (lib/session/first-screen.ts), not with the page: that screen
// comes from two HTTP answers, and the library's code and the connection's setup would otherwise
// run before the list shows (docs/DECISIONS.md, "The main area's first screen: what runs before
// the list"). What happens meanwhile reaches the page through the connection's catch-up.
import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';
import { errorMessage } from '@/lib/contract/error-message';
import { publicConfig } from '@/lib/config/public';
import { SOCKET_PROTOCOL, type Ack, type AckCallback, type ClientToServerEvents, type HandshakeAuth, type InitResult, type ServerToClientEvents } from '@/lib/contract';
import { afterFirstScreen } from '@/lib/session/first-screen';
import { onSignOut } from '@/lib/session/sign-out';
import { getStoredToken } from '@/lib/session/storage';
import { isProtocolRefusal, reloadForNewClient } from './outdated';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type SocketOptionsInput = Partial<ManagerOptions & SocketOptions>;
/** Builds the socket, at once or once its code is loaded; injectable so tests can drive a fake one. */
export type SocketFactory = (url: string | undefined, options: SocketOptionsInput) => ClientSocket | Promise<ClientSocket>;

/** `outdated`: the server no longer serves this client's protocol, and reloading did not help (outdated.ts). */
export type ConnectionStatus = 'connected' | 'connecting' | 'disconnected' | 'outdated';

/** Everything a listener can hear: the server's events plus two about the connection itself. */
export interface SocketEvents extends ServerToClientEvents {
  /**
   * A connection is established and the server acknowledged its `init`: other events may go out
   * now. Fires once per connection, the first and every reconnection.
   */
  ready: () => void;
  /** The connection's state changed; `attempt` counts reconnection attempts (0 once connected). */
  status: (status: ConnectionStatus, attempt: number) => void;
}
export type SocketEventName = keyof SocketEvents;

/** The client events that expect an acknowledgement, and what their ack carries. */
export type RequestEvent = Exclude<keyof ClientToServerEvents, 'init'>;
export type RequestPayload<E extends RequestEvent> = Parameters<ClientToServerEvents[E]>[0];
export type RequestResult<E extends RequestEvent> =
  NonNullable<Parameters<ClientToServerEvents[E]>[1]> extends AckCallback<infer T> ? T : never;

export interface SocketService {
  /**
   * Records the user id, connects if needed and sends `init {id}`; `init` goes out again on every
   * reconnection. A different user than the connection's reconnects with the token stored now.
   */
  initSocket(id: number): void;
  /** Closes the connection and drops whatever was queued for it. */
  disconnectSocket(): void;
  /** Subscribes to one event; returns the function that unsubscribes. */
  on<E extends SocketEventName>(event: E, listener: SocketEvents[E]): () => void;
  /** Emits an event and resolves with its ack; a timeout or no connection is an error ack. */
  request<E extends RequestEvent>(event: E, payload: RequestPayload<E>): Promise<Ack<RequestResult<E>>>;
  /** The server's rules as the last acknowledged init gave them (null before one). */
  serverRules(): InitResult | null;
  /** Connected and this connection's init acknowledged: requests may go out. */
  isReady(): boolean;
  /** The id the socket was initialised with: 0 until a user is known. */
  userId(): number;
  status(): ConnectionStatus;
  reconnectAttempt(): number;
}

export interface SocketServiceOptions {
  /** How long a request waits for the server's ack. */
  ackTimeoutMs?: number;
  /** When the server no longer serves this client's protocol: reloads the page; false when it did not (outdated.ts). */
  reloadForNewClient?: () => boolean;
}

// What the connection waits for besides the first screen: the listeners of its events (the
// messaging session, whose code comes after the first screen too: lib/realtime/session-start.ts).
let listenersReady: Promise<unknown> = Promise.resolve();

/**
 * The app's connection is made only once `ready` settles (and the first screen is painted), so
 * that none of its events, `init`'s answers first, comes before whoever listens to them.
 */
export function connectAfter(ready: Promise<unknown>): void {
  const before = listenersReady;
  listenersReady = Promise.all([before, ready.catch(() => undefined)]);
}

const defaultFactory: SocketFactory = (url, options) =>
  Promise.all([afterFirstScreen(), listenersReady])
    .then(() => import('socket.io-client'))
    .then(({ io }) => (url === undefined ? io(options) : io(url, options)));

const NOT_CONNECTED = 'Not connected.';
/** A refused init is asked again after 1 s, then twice as long each time, up to 30 s. */
const INIT_RETRY_FIRST_MS = 1_000;
const INIT_RETRY_MAX_MS = 30_000;

type Listener = (...args: never[]) => void;

export function createSocketService(
  factory: SocketFactory = defaultFactory,
  { ackTimeoutMs = 10_000, reloadForNewClient: reload = reloadForNewClient }: SocketServiceOptions = {},
): SocketService {
  let socket: ClientSocket | null = null;
  let socketUserId = 0;
  let status: ConnectionStatus = 'disconnected';
  let attempt = 0;
  const listeners = new Map<SocketEventName, Set<Listener>>();
  // The connection whose init the server acknowledged; events other than init wait for it.
  let readyConnection: ClientSocket | null = null;
  let browserOffline = false;

  function emitLocal<E extends SocketEventName>(event: E, ...args: Parameters<SocketEvents[E]>): void {
    // A copy, so a listener that unsubscribes itself does not disturb the others.
    for (const listener of [...(listeners.get(event) ?? [])]) (listener as (...a: Parameters<SocketEvents[E]>) => void)(...args);
  }

  function setStatus(next: ConnectionStatus, nextAttempt = next === 'connected' ? 0 : attempt): void {
    if (next === status && nextAttempt === attempt) return;
    status = next;
    attempt = nextAttempt;
    emitLocal('status', status, attempt);
  }

  // What the server said about its rules in the last init's ack (the edit and unsend windows).
  let rules: InitResult | null = null;

  function sendInit(target: ClientSocket, retries = 0): void {
    const id = socketUserId;
    if (!id) return;
    // The server refuses other events until init is done: listeners hear of the connection only
    // once it is acknowledged.
    target.emit('init', { id }, (ack) => {
      if (!target.connected || socketUserId !== id) return;
      if ('data' in ack) {
        readyConnection = target;
        rules = ack.data;
        emitLocal('ready');
        return;
      }
      // A deactivated account's init is refused and its socket closed (the guard ends the session).
      // A refusal on a connection that stays open is passing trouble (too many requests, a failed
      // query): asked again, later each time, so the tab does not stay connected and deaf.
      const delay = Math.min(INIT_RETRY_MAX_MS, INIT_RETRY_FIRST_MS * 2 ** retries);
      setTimeout(() => {
        if (target.connected && socketUserId === id && readyConnection !== target) sendInit(target, retries + 1);
      }, delay);
    });
  }

  // Every event of the contract, by construction: an event added there and not here fails the
  // type check instead of never reaching its listeners.
  const SERVER_EVENTS = Object.keys({
    message_count: true,
    message: true,
    followed: true,
    message_sent: true,
    follower: true,
    safety_changed: true,
    typing: true,
    presence: true,
    user_updated: true,
    message_change: true,
    account_item: true,
    seen: true,
  } satisfies Record<keyof ServerToClientEvents, true>) as (keyof ServerToClientEvents)[];

  function createSocket(): ClientSocket | Promise<ClientSocket> {
    const made = factory(publicConfig.socketUrl, {
      autoConnect: false,
      ...(publicConfig.socketWebSocketOnly ? { transports: ['websocket'] } : {}),
      // A callback, not a value: every (re)connect must carry the token stored at that moment.
      auth: (callback) => callback({ token: getStoredToken() ?? '', protocol: SOCKET_PROTOCOL } satisfies HandshakeAuth),
    });
    return made instanceof Promise ? made.then(listenTo) : listenTo(made);
  }

  function listenTo(created: ClientSocket): ClientSocket {
    // init is sent from here rather than from the Manager's 'reconnect' event: 'reconnect' fires
    // before the namespace is connected, and never after a manual reconnect, whereas 'connect'
    // fires exactly once per established connection, so the first connect is never doubled.
    created.on('connect', () => {
      setStatus('connected');
      sendInit(created);
    });
    created.on('disconnect', () => {
      readyConnection = null;
      setStatus(created.active ? 'connecting' : 'disconnected');
    });
    created.on('connect_error', (error) => {
      // A later release that no longer speaks this client's protocol: the page reloads for the
      // new client; if it cannot, the tab stays disconnected and says why, never retrying in vain.
      if (isProtocolRefusal(error)) {
        created.disconnect();
        setStatus(reload() ? 'disconnected' : 'outdated');
        return;
      }
      setStatus(created.active ? 'connecting' : 'disconnected');
    });
    created.io.on('reconnect_attempt', (count) => setStatus('connecting', count));
    for (const event of SERVER_EVENTS) {
      created.on(event, ((payload: never) => emitLocal(event, payload)) as never);
    }
    return created;
  }

  // The socket while its code loads: initSocket and disconnectSocket meanwhile only say what is
  // wanted (the id, or no connection), which the socket follows once it exists.
  let loading: Promise<void> | null = null;
  let wanted = false;

  function initSocket(id: number): void {
    const previousId = socketUserId;
    socketUserId = id;
    wanted = true;
    if (!socket) {
      if (loading) return;
      const made = createSocket();
      if (made instanceof Promise) {
        setStatus('connecting');
        loading = made.then(
          (created) => {
            loading = null;
            socket = created;
            watchBrowserConnectivity();
            if (wanted && socketUserId) connect();
            else setStatus('disconnected');
          },
          (error: unknown) => {
            // Its code could not be loaded (offline, a deploy removed the chunk): the next initSocket tries again.
            loading = null;
            setStatus('disconnected');
            console.warn('The connection could not start:', error);
          },
        );
        return;
      }
      socket = made;
      watchBrowserConnectivity();
    }
    if (socket.connected && previousId === id) return; // init went out when this connection opened
    if (socket.connected) {
      // This connection was authenticated as someone else: the server would refuse the init.
      // Reconnect so the handshake carries the token stored now; its 'connect' sends the init.
      dropConnection();
    }
    connect();
  }

  /** Connects unless the browser is offline or an attempt is under way (its 'connect' sends init with the id now). */
  function connect(): void {
    if (!socket) return;
    if (browserOffline) {
      setStatus('disconnected'); // 'online' connects
      return;
    }
    if (!socket.active) {
      setStatus('connecting');
      socket.connect();
    }
  }

  /**
   * The browser knows at once when the network goes (a dead WebSocket takes up to a ping timeout
   * to notice): drop the connection then, so sends queue in the outbox instead of vanishing into
   * a dead transport, and reconnect as soon as the network is back.
   */
  function watchBrowserConnectivity(): void {
    if (typeof window === 'undefined') return;
    // A page opened without a network hears no 'offline': it waits for 'online' all the same.
    browserOffline = typeof navigator !== 'undefined' && navigator.onLine === false;
    window.addEventListener('offline', () => {
      browserOffline = true;
      if (socket?.active) dropConnection();
    });
    window.addEventListener('online', () => {
      browserOffline = false;
      if (socketUserId && wanted) connect();
    });
  }

  /** Closes the connection and keeps nothing for later; initSocket connects again. */
  function disconnectSocket(): void {
    wanted = false;
    if (socket) dropConnection();
    else if (loading) setStatus('disconnected');
  }

  function dropConnection(): void {
    if (!socket) return;
    readyConnection = null;
    socket.disconnect();
    // disconnect() keeps queued emits; they must not go out later under the next user's token.
    socket.sendBuffer = [];
    setStatus('disconnected');
  }

  // Callers get an Ack either way: transport failures become the same error shape the server uses.
  async function request<E extends RequestEvent>(event: E, payload: RequestPayload<E>): Promise<Ack<RequestResult<E>>> {
    if (!socket?.active) return { error: { msg: NOT_CONNECTED } };
    try {
      const emitter = socket.timeout(ackTimeoutMs) as unknown as {
        emitWithAck: (name: E, body: RequestPayload<E>) => Promise<Ack<RequestResult<E>>>;
      };
      return await emitter.emitWithAck(event, payload);
    } catch (error) {
      return { error: { msg: errorMessage(error) } };
    }
  }

  return {
    initSocket,
    disconnectSocket,
    on(event, listener) {
      const set = listeners.get(event) ?? new Set<Listener>();
      set.add(listener as Listener);
      listeners.set(event, set);
      return () => void set.delete(listener as Listener);
    },
    request,
    serverRules: () => rules,
    isReady: () => readyConnection !== null && readyConnection === socket && socket.connected,
    userId: () => socketUserId,
    status: () => status,
    reconnectAttempt: () => attempt,
  };
}

/** The application's socket; nothing connects until the first initSocket. It goes at sign-out: its credential is gone. */
export const socketService: SocketService = createSocketService();
onSignOut(() => socketService.disconnectSocket());
