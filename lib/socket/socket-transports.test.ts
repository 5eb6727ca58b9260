import { afterEach, describe, expect, it, vi } from 'vitest';

// publicConfig is read once at load: each case loads fresh modules under its environment.
async function firstSocketOptions() {
  vi.resetModules();
  const { createServiceHarness } = await import('./testing/service-harness');
  const harness = createServiceHarness();
  harness.service.initSocket(7);
  return harness.lastSocket().options;
}

describe('socket transports', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('lets Socket.IO start with long polling and upgrade, by default', async () => {
    vi.stubEnv('NEXT_PUBLIC_SOCKET_WEBSOCKET_ONLY', '');
    expect(await firstSocketOptions()).not.toHaveProperty('transports');
  });

  it('uses WebSocket only when NEXT_PUBLIC_SOCKET_WEBSOCKET_ONLY=true (a balancer without sticky sessions)', async () => {
    vi.stubEnv('NEXT_PUBLIC_SOCKET_WEBSOCKET_ONLY', 'true');
    expect(await firstSocketOptions()).toMatchObject({ transports: ['websocket'] });
  });
});
