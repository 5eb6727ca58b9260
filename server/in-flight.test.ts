import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { trackInFlight } from './in-flight';
import { RESTARTING_MSG } from './realtime/ack';
import type { RealtimeServer } from './realtime/types';

// A bare HTTP + Socket.IO server with one slow request and one slow event, each finished by the test.
let httpServer: HttpServer;
let io: RealtimeServer;
let client: Socket | undefined;

async function start() {
  const release = { request: () => {}, event: () => {} };
  httpServer = createServer((req, res) => {
    if (req.url === '/slow') release.request = () => res.end('done');
    else if (!req.url?.startsWith('/socket.io/')) res.end('fast');
  });
  io = new Server(httpServer) as unknown as RealtimeServer;
  io.on('connection', (socket) => {
    (socket as unknown as Socket).on('slow', (ack: (answer: string) => void) => {
      release.event = () => ack('finished');
    });
  });
  const inFlight = trackInFlight(httpServer, io);
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  return { inFlight, release, url };
}

async function connected(url: string): Promise<Socket> {
  client = connect(url, { reconnection: false, forceNew: true, transports: ['websocket'] });
  await new Promise<void>((resolve) => client!.once('connect', () => resolve()));
  return client;
}

afterEach(async () => {
  client?.close();
  await io?.close();
});

describe('trackInFlight', () => {
  it("lets a request answered at once by the server's own handler through while draining", async () => {
    const { inFlight, url } = await start();
    const uncaught: unknown[] = [];
    const record = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', record);
    try {
      inFlight.beginDraining();
      // '/fast' is answered synchronously, before the tracker's listener sees the request.
      const response = await fetch(`${url}/fast`);
      expect(await response.text()).toBe('fast');
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', record);
    }
  });

  it('settles only once the request in flight has been answered, and that answer closes its connection', async () => {
    const { inFlight, release, url } = await start();
    const response = fetch(`${url}/slow`);
    await expect.poll(() => inFlight.count).toBe(1);

    inFlight.beginDraining();
    const settled = inFlight.settled(60_000);
    release.request();
    expect(await settled).toBe(true);
    const answer = await response;
    expect(answer.headers.get('connection')).toBe('close');
    expect(await answer.text()).toBe('done');
  });

  it('waits for a socket event until its handler acks, and refuses new events while draining', async () => {
    const { inFlight, release, url } = await start();
    const socket = await connected(url);
    const slow = socket.emitWithAck('slow');
    await expect.poll(() => inFlight.count).toBe(1);

    inFlight.beginDraining();
    // A new event is answered at once with a transient error (the client's outbox retries it).
    expect(await socket.timeout(10_000).emitWithAck('slow')).toEqual({ error: { msg: RESTARTING_MSG } });
    expect(await inFlight.settled(0)).toBe(false);

    const settled = inFlight.settled(60_000);
    release.event();
    expect(await slow).toBe('finished');
    expect(await settled).toBe(true);
    expect(inFlight.count).toBe(0);
  });

  it('does not wait for Socket.IO long polls, which only closing Socket.IO ends', async () => {
    const { inFlight, url } = await start();
    client = connect(url, { reconnection: false, forceNew: true, transports: ['polling'] });
    await new Promise<void>((resolve) => client!.once('connect', () => resolve()));
    expect(inFlight.count).toBe(0);
    expect(await inFlight.settled(0)).toBe(true);
  });
});
