import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './test/helpers';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ inMemory: true });
});
afterAll(() => t.close());

describe('the HTTP server', () => {
  it('keeps idle keep-alive connections longer than a load balancer (60 s), so clients close first', () => {
    expect(t.server.httpServer.keepAliveTimeout).toBeGreaterThan(60_000);
    expect(t.server.httpServer.headersTimeout).toBeGreaterThan(t.server.httpServer.keepAliveTimeout);
  });
});
