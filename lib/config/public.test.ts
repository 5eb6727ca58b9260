import { afterEach, describe, expect, it, vi } from 'vitest';

// The module reads the environment once at load, so each case loads a fresh copy.
async function loadConfig() {
  vi.resetModules();
  return (await import('./public')).publicConfig;
}

describe('publicConfig', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('falls back to /api and the page origin when nothing is set', async () => {
    vi.stubEnv('NEXT_PUBLIC_API_URL', '');
    vi.stubEnv('NEXT_PUBLIC_SOCKET_URL', '');
    vi.stubEnv('NEXT_PUBLIC_SOCKET_WEBSOCKET_ONLY', '');
    vi.stubEnv('NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST', '');
    const config = await loadConfig();
    expect(config.apiUrl).toBe('/api');
    expect(config.socketUrl).toBeUndefined();
    expect(config.socketWebSocketOnly).toBe(false);
    expect(config.authEmulatorHost).toBeUndefined();
  });

  it('uses the NEXT_PUBLIC_ variables when they are set', async () => {
    vi.stubEnv('NEXT_PUBLIC_API_URL', 'https://parley.test/api');
    vi.stubEnv('NEXT_PUBLIC_SOCKET_URL', 'https://parley.test');
    vi.stubEnv('NEXT_PUBLIC_SOCKET_WEBSOCKET_ONLY', 'true');
    vi.stubEnv('NEXT_PUBLIC_FIREBASE_API_KEY', 'key');
    vi.stubEnv('NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN', 'parley.firebaseapp.com');
    vi.stubEnv('NEXT_PUBLIC_FIREBASE_PROJECT_ID', 'parley');
    vi.stubEnv('NEXT_PUBLIC_FIREBASE_APP_ID', 'app');
    vi.stubEnv('NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST', '127.0.0.1:9099');
    const config = await loadConfig();
    expect(config).toEqual({
      apiUrl: 'https://parley.test/api',
      socketUrl: 'https://parley.test',
      socketWebSocketOnly: true,
      firebase: { apiKey: 'key', authDomain: 'parley.firebaseapp.com', projectId: 'parley', appId: 'app' },
      authEmulatorHost: '127.0.0.1:9099',
    });
  });
});
