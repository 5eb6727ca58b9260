// A TCP load balancer in front of the nodes, as production would have: each connection goes to the
// first node (in preference order) that accepts it. When a node dies its connections are cut, and
// its clients' reconnections land on the next node, with no change to the clients.
import { createConnection, createServer, type Socket } from 'node:net';

export interface Balancer {
  readonly url: string;
  /** Every connection passed through, with the node port that took it and when (Date.now()). */
  readonly routed: { port: number; at: number }[];
  close(): Promise<void>;
}

/** Listens on a free loopback port; `ports` are the nodes', most preferred first. */
export async function startBalancer(ports: number[]): Promise<Balancer> {
  const routed: { port: number; at: number }[] = [];
  const open = new Set<Socket>();
  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  };

  const server = createServer({ pauseOnConnect: true }, (client) => {
    track(client);
    client.on('error', () => undefined);
    const tryNode = (index: number) => {
      const port = ports[index];
      if (port === undefined || client.destroyed) return client.destroy();
      const upstream = createConnection({ host: '127.0.0.1', port });
      track(upstream);
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        routed.push({ port, at: Date.now() });
        upstream.pipe(client);
        client.pipe(upstream);
        client.resume();
      });
      upstream.on('error', () => {
        if (!connected) tryNode(index + 1);
      });
      // Either side going away ends the pair: a dead node's clients see their connection close.
      upstream.once('close', () => connected && client.destroy());
      client.once('close', () => upstream.destroy());
    };
    tryNode(0);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('balancer has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    routed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
