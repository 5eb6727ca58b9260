import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, type TestServer } from '../test/helpers';

let t: TestServer;
beforeAll(async () => {
  // A drain long enough that the probe below lands inside it; close() in afterAll waits it out.
  t = await startTestServer({ inMemory: true, config: { shutdownDrainMs: 1_000 } });
});
afterAll(() => t.close());

describe('GET /api/health and /api/ready', () => {
  it('answers liveness and readiness while the database answers', async () => {
    expect(await api(t.url, '/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await api(t.url, '/ready')).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('answers 503 {msg} to readiness, and still 200 to liveness, from the moment close() starts', async () => {
    const closing = t.server.close();
    expect(t.server.draining).toBe(true);
    // In-process (no network): the drain keeps the node serving, so the probe is answered.
    const ready = await t.server.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ msg: 'Shutting down.' });
    expect((await t.server.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    await closing;
  });
});
