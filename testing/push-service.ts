// A Web Push service on loopback (the server tests, the e2e suite): web-push-testing's push
// service, which hands out real subscriptions (P-256 key, auth secret), checks each push's VAPID
// signature and headers, decrypts the payload (RFC 8291) and keeps it for the test to read. It
// answers 410 for a subscription the test expired, as real push services do.
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PushSubscriptionRequest } from '../lib/contract';

const require = createRequire(import.meta.url);

interface PushApiModelInstance {
  notifyUrl: string;
}
interface WebPushTestingServerInstance {
  _app: (req: unknown, res: unknown) => void;
  setRequestHandlers(): void;
}

export interface LocalSubscription {
  /** What a browser's PushSubscription.toJSON() gives: POST it to /api/push/subscriptions. */
  subscription: PushSubscriptionRequest;
  /** The push service's id of it (reading its pushes, expiring it). */
  clientHash: string;
}

export interface LocalPushService {
  /** http://127.0.0.1:<port> */
  url: string;
  /** A new subscription to pushes signed with `applicationServerKey` (base64url), as a browser's pushManager.subscribe makes. */
  subscribe(applicationServerKey: string): Promise<LocalSubscription>;
  /** Every payload pushed to the subscription so far, decrypted, oldest first. */
  received(clientHash: string): Promise<string[]>;
  /** From now on pushes to it answer 410 Gone. */
  expire(clientHash: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * web-push-testing keeps one service per process (its handlers share a module-level model), so
 * one is started on first use and shared; its CLI would listen on every interface and a fixed
 * port, so its app is mounted on our own loopback server instead.
 */
let shared: Promise<LocalPushService> | null = null;

export function startLocalPushService(): Promise<LocalPushService> {
  return (shared ??= start());
}

async function start(): Promise<LocalPushService> {
  const { PushApiModel } = require('web-push-testing/src/PushApiModel.js') as { PushApiModel: new () => PushApiModelInstance };
  const WebPushTestingServer = require('web-push-testing/src/server.js') as new (
    model: PushApiModelInstance,
    port: number,
  ) => WebPushTestingServerInstance;
  const model = new PushApiModel();
  const service = new WebPushTestingServer(model, 0);
  service.setRequestHandlers();
  const server: Server = createServer(service._app as never);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  model.notifyUrl = `${url}/notify/`;

  async function call<T>(route: string, body: unknown): Promise<T> {
    const response = await fetch(`${url}${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`push service ${route}: ${response.status} ${text}`);
    return (response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined) as T;
  }

  return {
    url,
    async subscribe(applicationServerKey) {
      const { data } = await call<{ data: PushSubscriptionRequest & { clientHash: string } }>('/subscribe', { applicationServerKey });
      const { clientHash, ...subscription } = data;
      return { subscription, clientHash };
    },
    async received(clientHash) {
      const { data } = await call<{ data: { messages: string[] } }>('/get-notifications', { clientHash });
      return data.messages;
    },
    async expire(clientHash) {
      await call(`/expire-subscription/${clientHash}`, {});
    },
    close: async () => {
      shared = null;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
