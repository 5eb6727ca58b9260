// The flooding account, in a child process of its own so its busy loops never slow the load
// generator measuring everyone else. Told over IPC {start: FloodJob}, it floods one path
// (bench/flood-paths.ts); it says {ready} once every loop has started, {limited} once the server
// first refused it for its rate (its burst is spent: from then on it floods at its limits); on
// {stop} it reports what it sent and how it was answered ({tally}).
import type { Socket } from 'socket.io-client';
import { newTally, runFloodPath, type FloodJob } from './flood-paths';

const tally = newTally();
const open = new Set<Socket>();
let running = true;
const started = performance.now();
const cpuStart = process.cpuUsage();

const LIMITED_POLL_MS = 50;

process.on('message', (message: { start?: FloodJob; stop?: boolean }) => {
  if (message.start) {
    const watch = setInterval(() => {
      if (tally.rateLimited === 0 && tally.busy === 0) return;
      clearInterval(watch);
      process.send?.({ limited: true });
    }, LIMITED_POLL_MS);
    runFloodPath(message.start, tally, () => running, open, () => process.send?.({ ready: true })).catch((error: unknown) => {
      process.send?.({ failed: String(error) });
    });
  }
  if (message.stop) {
    running = false;
    tally.durationMs = Math.round(performance.now() - started);
    const cpu = process.cpuUsage(cpuStart);
    tally.cpuPercent = Math.round(((cpu.user + cpu.system) / 1000 / tally.durationMs) * 1000) / 10;
    for (const socket of open) socket.close();
    process.send?.({ tally });
    setTimeout(() => process.exit(0), 100);
  }
});
