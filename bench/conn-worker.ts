// A child process holding its share of the idle sockets (one process's file limit is not enough
// for all of them). Told over IPC: {url, users, sources, concurrency}; reports {progress}, then
// {ready}; on {close} it closes every socket and exits.
import type { Socket } from 'socket.io-client';
import { connectOne, type BenchUser } from './clients';

interface Start {
  url: string;
  users: BenchUser[];
  sources: string[];
  concurrency: number;
}

const sockets: Socket[] = [];
let failures = 0;
let firstFailure: string | null = null;

process.on('message', (message: { start?: Start; close?: boolean }) => {
  if (message.start) void start(message.start);
  if (message.close) {
    for (const socket of sockets) socket.close();
    process.exit(0);
  }
});

async function start({ url, users, sources, concurrency }: Start): Promise<void> {
  let next = 0;
  let done = 0;
  let lastReport = 0;
  const worker = async () => {
    while (next < users.length) {
      const index = next++;
      try {
        sockets.push(await connectOne(url, users[index]!, sources[index % sources.length], 60_000));
      } catch (error) {
        failures++;
        firstFailure ??= error instanceof Error ? error.message : String(error);
      }
      done++;
      if (done - lastReport >= 100 || done === users.length) {
        lastReport = done;
        process.send?.({ progress: sockets.length, failures });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, users.length) }, worker));
  let disconnected = 0;
  for (const socket of sockets) socket.on('disconnect', () => process.send?.({ disconnected: ++disconnected }));
  process.send?.({ ready: sockets.length, failures, firstFailure });
}
