// The environment of the end-to-end stack's app: a production build with the Auth emulator
// switched on (in its own .next-e2e folder), served by the bundled server. Shared by the stack
// Playwright starts (e2e-server.mjs) and the second, "remote" server of check-e2e-remote.mjs.
import webPush from 'web-push';

/** What `next build` and the server both see: the pages' public config, fixed at build time. */
export function e2eBuildEnv(emulatorHost) {
  return {
    ...process.env,
    NEXT_DIST_DIR: '.next-e2e',
    NEXT_PUBLIC_FIREBASE_API_KEY: 'demo-api-key',
    NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN: 'localhost',
    NEXT_PUBLIC_FIREBASE_PROJECT_ID: 'demo-parley',
    NEXT_PUBLIC_FIREBASE_APP_ID: 'demo-app',
    NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    NEXT_TELEMETRY_DISABLED: '1',
  };
}

/**
 * Web Push for the suite: a key pair of its own, and pushes only to a push service on loopback
 * (the specs run one: testing/push-service.ts).
 */
const e2ePushKeys = webPush.generateVAPIDKeys();

/** The server's run-time settings on a throwaway database; emulator tokens allowed (tests only). */
export function e2eServerEnv({ emulatorHost, port, dataDir }) {
  return {
    ...e2eBuildEnv(emulatorHost),
    NODE_ENV: 'production',
    PORT: String(port),
    DATA_DIR: dataDir,
    FIREBASE_PROJECT_ID: 'demo-parley',
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    ALLOW_AUTH_EMULATOR_IN_PRODUCTION: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    // No load shedding: on a loaded machine (a build, Chromium and the suite on two cores) the
    // event loop can lag past its threshold, and a test would then fail for the machine's load.
    SHED_EVENT_LOOP_DELAY_MS: '0',
    // Every person the suite makes signs up from this one address.
    RATE_LIMIT_SIGNUP: 'off',
    VAPID_PUBLIC_KEY: e2ePushKeys.publicKey,
    VAPID_PRIVATE_KEY: e2ePushKeys.privateKey,
    VAPID_SUBJECT: 'mailto:e2e@parley.example',
    PUSH_ENDPOINT_ORIGINS: 'http://127.0.0.1',
  };
}
