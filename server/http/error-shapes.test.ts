import { request as httpRequest } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ParleyServer } from '../app';
import { openDatabase } from '../db/engine/open-database';
import { api, authorizeBody } from '../test/helpers';

// A server whose verifier fails like an unreachable Google would, with Next stand-ins
// recording what reaches them; no emulator needed for these routing and error-shape checks.
let server: ParleyServer;
let url: string;
let dir: string;
const upgrades: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parley-errors-'));
  server = createServer({
    config: { port: 0, host: '127.0.0.1', logLevel: 'silent' },
    db: await openDatabase({ pgliteDir: dir }),
    verifier: {
      verifyIdToken: async () => {
        throw new Error('connect ECONNREFUSED secret-internal-host:443');
      },
      accountStatus: async () => 'active',
    },
    nextHandler: (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`next:${req.url}`);
    },
    nextUpgradeHandler: (req, socket) => {
      upgrades.push(req.url ?? '');
      socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    },
  });
  url = `http://127.0.0.1:${(await server.listen()).port}`;
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('error shapes', () => {
  it('404s unknown API routes with a msg', async () => {
    for (const route of ['/nope', '/accounts/nope', '']) {
      const response = await api(url, route);
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ msg: 'Not found' });
    }
  });

  it('404s a known route with the wrong method', async () => {
    const response = await api(url, '/accounts/authorize');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ msg: 'Not found' });
  });

  it('hides unexpected errors behind a 500 msg', async () => {
    const body = authorizeBody({ uid: 'uid-1', idToken: 'token' });
    const response = await api(url, '/accounts/authorize', { method: 'POST', json: body });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ msg: 'Internal server error' });
  });
});

describe('GET /api/health', () => {
  it('answers without a token, for load balancers and the e2e launcher', async () => {
    const response = await api(url, '/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });
});

describe('one port for everything', () => {
  it('hands non-API paths to Next', async () => {
    const response = await fetch(`${url}/main?x=1`);
    expect(await response.text()).toBe('next:/main?x=1');
    expect(await (await fetch(`${url}/apiary`)).text()).toBe('next:/apiary');
  });

  it('keeps /api paths away from Next', async () => {
    const response = await fetch(`${url}/api?x=1`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ msg: 'Not found' });
  });

  it('passes non-Socket.IO upgrades (HMR) to Next', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${url}/_next/webpack-hmr`, {
        headers: { connection: 'Upgrade', upgrade: 'websocket' },
      });
      req.on('upgrade', (_res, socket) => {
        socket.destroy();
        resolve();
      });
      req.on('error', reject);
      req.end();
    });
    expect(upgrades).toEqual(['/_next/webpack-hmr']);
  });

  it('still serves Socket.IO on the same port', async () => {
    const response = await fetch(`${url}/socket.io/?EIO=4&transport=polling`);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^0\{"sid":/);
  });
});
