// The browser's configuration, read once. Next inlines NEXT_PUBLIC_* only for literal
// `process.env.NAME` accesses, so every variable is spelled out here and nowhere else.

export interface FirebasePublicConfig {
  apiKey: string | undefined;
  authDomain: string | undefined;
  projectId: string | undefined;
  appId: string | undefined;
}

export interface PublicConfig {
  /** Base of the HTTP API, relative to the site unless absolute. */
  apiUrl: string;
  /** Socket.IO server; undefined means the page's own origin. */
  socketUrl: string | undefined;
  /**
   * WebSocket from the start, no long-polling first: behind a load balancer without sticky
   * sessions, a polling session's requests could reach different nodes (docs/DEPLOY.md).
   */
  socketWebSocketOnly: boolean;
  firebase: FirebasePublicConfig;
  /** host:port of the Firebase Auth emulator, when the app runs against it. */
  authEmulatorHost: string | undefined;
}

export const publicConfig: PublicConfig = Object.freeze({
  apiUrl: process.env.NEXT_PUBLIC_API_URL || '/api',
  socketUrl: process.env.NEXT_PUBLIC_SOCKET_URL || undefined,
  socketWebSocketOnly: process.env.NEXT_PUBLIC_SOCKET_WEBSOCKET_ONLY === 'true',
  firebase: Object.freeze({
    apiKey: process.env.NEXT_PUBLIC_FIREBASE_API_KEY,
    authDomain: process.env.NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN,
    projectId: process.env.NEXT_PUBLIC_FIREBASE_PROJECT_ID,
    appId: process.env.NEXT_PUBLIC_FIREBASE_APP_ID,
  }),
  authEmulatorHost: process.env.NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST || undefined,
});
