// What one flooding account does, path by path (bench/flood-worker.ts runs one of them at a time).
// Each path is a set of loops, each sending its next request as soon as the last one is answered,
// so the account always sits at (and past) whatever limit the server puts on that path. Its
// sockets speak protocol 2, as the app's (bench/clients.ts).
import { randomBytes } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import type { AccountSyncResult } from '../lib/contract';
import type { ReadPayload, SyncAccountPayload, SyncConversationPayload } from '../lib/contract/schemas';
import { connectOne, directConversation, type BenchUser } from './clients';

export const FLOOD_PATHS = ['sync', 'thread', 'export', 'churn', 'download', 'read', 'init', 'cpu'] as const;
export type FloodPath = (typeof FLOOD_PATHS)[number];

/** Paths the server never refuses (nothing is asked of it): their flooded phase starts at once. */
export const UNLIMITED_PATHS: ReadonlySet<FloodPath> = new Set(['cpu']);

/** What each path does, for the table. */
export const FLOOD_PATH_LOAD: Record<FloodPath, string> = {
  sync: 'sockets at the per-user cap, each looping a catch-up: `sync_account {cursor}`, then `sync_conversation {conversation_id, after: 0, limit: 500}`',
  thread: 'loops of GET /c/:conversation/messages?limit=100 (keep-alive)',
  export: 'loops of GET /accounts/export, each read to the end',
  churn: 'loops of connect (handshake) + init + disconnect',
  download: 'unauthenticated loops of GET /uploads/:id/:name (a 4 MB file), each read to the end',
  read: 'sockets at the per-user cap, each looping `read {conversation_id}`',
  init: 'sockets at the per-user cap, each looping `init`',
  cpu: 'no request at all: the flooding process only keeps a third of a core busy (a control: what sharing the machine costs)',
};

export interface FloodTally {
  /** Requests or events, by how they were answered. */
  answered: number;
  rateLimited: number;
  busy: number;
  otherErrors: number;
  timedOut: number;
  /** Sockets the server disconnected, and connections refused. */
  evicted: number;
  connectFailures: number;
  durationMs: number;
  /** The flooding process's own CPU over the flood, % of one core: it shares the machine with the server. */
  cpuPercent: number;
}

export interface FloodJob {
  url: string;
  user: BenchUser;
  peerId: number;
  path: FloodPath;
  /** Loops (sockets or requests in flight) the account runs at once. */
  loops: number;
}

const ACK_TIMEOUT_MS = 10_000;
const PAUSE_MS = 100;
const DOWNLOAD_BYTES = 4_000_000;
const CPU_BUSY_MS = 3;
const CPU_REST_MS = 7;

export function newTally(): FloodTally {
  return { answered: 0, rateLimited: 0, busy: 0, otherErrors: 0, timedOut: 0, evicted: 0, connectFailures: 0, durationMs: 0, cpuPercent: 0 };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function recordAck(tally: FloodTally, ack: unknown): void {
  const error = (ack as { error?: { msg?: string } } | null)?.error;
  if (!error) tally.answered++;
  else if (/^Too many requests/.test(error.msg ?? '')) tally.rateLimited++;
  else if (/busy/.test(error.msg ?? '')) tally.busy++;
  else tally.otherErrors++;
}

function recordStatus(tally: FloodTally, status: number): void {
  if (status < 400) tally.answered++;
  else if (status === 429) tally.rateLimited++;
  else if (status === 503) tally.busy++;
  else tally.otherErrors++;
}

/**
 * Runs `job` until `running()` turns false. Sockets are opened again when the server closes them,
 * as a determined attacker would.
 */
export async function runFloodPath(job: FloodJob, tally: FloodTally, running: () => boolean, opened: Set<Socket>, ready: () => void): Promise<void> {
  const { url, user, peerId } = job;
  const auth = { authorization: `Bearer ${user.token}` };
  let started = 0;
  const triedOne = () => {
    if (++started === job.loops) ready();
  };

  /** One request on a socket, its answer tallied: the ack's data, or null (refused, or no answer). */
  const ask = async <T>(socket: Socket, event: string, payload: unknown): Promise<T | null> => {
    try {
      const ack = (await socket.timeout(ACK_TIMEOUT_MS).emitWithAck(event, payload)) as { data: T } | { error: unknown };
      recordAck(tally, ack);
      return 'data' in ack ? ack.data : null;
    } catch {
      if (socket.connected) tally.timedOut++;
      return null;
    }
  };

  /** Sockets opened one after another, each running `step` for as long as it stays open. */
  const socketLoop = async (step: (socket: Socket) => Promise<unknown>) => {
    let first = true;
    while (running()) {
      let socket: Socket;
      try {
        socket = await connectOne(url, user, undefined, 30_000);
      } catch {
        tally.connectFailures++;
        if (first) triedOne();
        first = false;
        await pause(PAUSE_MS);
        continue;
      }
      opened.add(socket);
      if (first) triedOne();
      first = false;
      socket.once('disconnect', (reason) => {
        if (reason === 'io server disconnect') tally.evicted++;
      });
      while (running() && socket.connected) await step(socket);
      opened.delete(socket);
      socket.close();
      await pause(PAUSE_MS);
    }
  };

  const httpLoop = async (address: () => string, headers: Record<string, string>) => {
    triedOne();
    while (running()) {
      try {
        const response = await fetch(address(), { headers, signal: AbortSignal.timeout(60_000) });
        // Read to the end, as a downloader does: the server's whole answer is paid for.
        await response.arrayBuffer();
        recordStatus(tally, response.status);
      } catch {
        tally.timedOut++;
      }
    }
  };

  /** One socket opened, initialised and dropped, over and over. */
  const churnLoop = async () => {
    triedOne();
    while (running()) {
      try {
        const socket = await connectOne(url, user, undefined, 30_000);
        tally.answered++;
        socket.close();
      } catch (error) {
        if (/Too many|busy/i.test(String(error))) tally.rateLimited++;
        else tally.connectFailures++;
        await pause(PAUSE_MS / 10);
      }
    }
  };

  const loops = Array.from({ length: job.loops });
  switch (job.path) {
    case 'sync': {
      // A reconnect's catch-up as the app asks it, whole pages: what moved since the account's
      // cursor (the first answer's, then each next one's), then the long conversation's first 500
      // items, as protocol 1's `sync {after: 0, limit: 500}` read the account's.
      const conversationId = await directConversation(url, user, peerId);
      return void (await Promise.all(
        loops.map(() => {
          let cursor: string | undefined;
          return socketLoop(async (socket) => {
            const moved = await ask<AccountSyncResult>(socket, 'sync_account', (cursor === undefined ? {} : { cursor }) satisfies SyncAccountPayload);
            if (moved) cursor = moved.cursor;
            await ask(socket, 'sync_conversation', { conversation_id: conversationId, after: 0, limit: 500 } satisfies SyncConversationPayload);
          });
        }),
      ));
    }
    case 'read': {
      const conversationId = await directConversation(url, user, peerId);
      return void (await Promise.all(loops.map(() => socketLoop((socket) => ask(socket, 'read', { conversation_id: conversationId } satisfies ReadPayload)))));
    }
    case 'init':
      return void (await Promise.all(loops.map(() => socketLoop((socket) => ask(socket, 'init', { id: user.id })))));
    case 'thread': {
      const conversationId = await directConversation(url, user, peerId);
      return void (await Promise.all(loops.map(() => httpLoop(() => `${url}/api/c/${conversationId}/messages?limit=100`, auth))));
    }
    case 'export':
      return void (await Promise.all(loops.map(() => httpLoop(() => `${url}/api/accounts/export`, auth))));
    case 'churn':
      return void (await Promise.all(loops.map(() => churnLoop())));
    case 'cpu':
      // Asks the server nothing: busy 3 ms in every 10, about what the download flood's own process uses.
      ready();
      while (running()) {
        const until = performance.now() + CPU_BUSY_MS;
        while (performance.now() < until);
        await pause(CPU_REST_MS);
      }
      return;
    case 'download': {
      const file = await uploadFile(url, auth);
      // No token: the URL is the capability, so anyone holding it can ask for it.
      return void (await Promise.all(loops.map(() => httpLoop(() => `${url}${file}`, {}))));
    }
  }
}

/** Uploads one file of random bytes and returns its path. */
async function uploadFile(url: string, auth: Record<string, string>): Promise<string> {
  const response = await fetch(`${url}/api/uploads`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/octet-stream', 'x-file-name': 'flood.bin', 'content-length': String(DOWNLOAD_BYTES) },
    body: randomBytes(DOWNLOAD_BYTES),
  });
  if (!response.ok) throw new Error(`the flood's upload failed: ${response.status} ${await response.text()}`);
  const attachment = (await response.json()) as { url: string };
  return new URL(attachment.url, url).pathname;
}
