// Load shedding: while the event loop lags, requests and socket events are refused at once with a
// transient answer, except the probes (and accounts/info and init, whose refusal the client would
// not retry). The lag is real: this test keeps the loop busy in its own process, where the server runs.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, expect, it } from 'vitest';
import type { Ack } from '../../lib/contract';
import { waitUntil } from '../../testing/wait';
import { startConfiguredServer } from '../test/configured-server';
import { api, signIn, type SignedInUser } from '../test/helpers';
import { emitWithAck } from '../test/socket-client';
import { serverWithTabs } from '../test/tabs';
import { SHED_MSG, SHED_RETRY_AFTER_SECONDS } from '../security/shed';

// Far below the default, so that the loop this test keeps busy is well past it on any machine.
const { t, tabs } = serverWithTabs(() => startConfiguredServer({ config: { shedEventLoopDelayMs: 30 } }));
let alice: SignedInUser;
let bob: SignedInUser;
let stopBlocking = () => {};

beforeAll(async () => {
  [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
});
afterEach(() => stopBlocking());

/** Keeps the event loop blocked 100 ms at a time, with a moment's gap for everything else to run. */
function blockTheLoop(): () => void {
  let running = true;
  const block = () => {
    if (!running) return;
    const until = Date.now() + 100;
    while (Date.now() < until) {
      // busy: this is the lag being simulated
    }
    setTimeout(block, 1);
  };
  setTimeout(block, 1);
  return () => void (running = false);
}

it('sheds requests and socket events while the event loop lags, never the probes, and recovers', async () => {
  const tab = await tabs.open(alice);
  const conversations = () => api<unknown>(t.url, '/c', { token: alice.bearer });
  // Starting the server (PGlite) may itself have lagged the loop past the test's low threshold.
  await waitUntil(async () => (await conversations()).status === 200, { timeoutMs: 15_000, what: 'a calm start' });

  stopBlocking = blockTheLoop();
  await waitUntil(async () => (await conversations()).status === 503, { timeoutMs: 15_000, what: 'requests to be shed' });
  const shed = await conversations();
  expect(shed.status).toBe(503);
  expect(shed.body).toEqual({ msg: SHED_MSG });
  expect(shed.headers.get('retry-after')).toBe(String(SHED_RETRY_AFTER_SECONDS));

  const send = await emitWithAck<Ack<unknown>>(tab, 'send', { client_id: randomUUID(), recipient_id: bob.user.id, text: 'busy?' });
  expect(send).toEqual({ error: { msg: SHED_MSG } });
  // Never shed: the probes, accounts/info (a failure signs the client out) and init.
  expect((await api(t.url, '/health')).status).toBe(200);
  expect((await api(t.url, '/ready')).status).toBe(200);
  expect((await api(t.url, '/accounts/info', { token: alice.bearer })).status).toBe(200);
  expect(await emitWithAck(tab, 'init', { id: alice.user.id })).toEqual({ data: expect.objectContaining({ id: alice.user.id }) });

  stopBlocking();
  await waitUntil(async () => (await conversations()).status === 200, { timeoutMs: 15_000, what: 'shedding to stop' });
  const sent = await emitWithAck<Ack<unknown>>(tab, 'send', { client_id: randomUUID(), recipient_id: bob.user.id, text: 'calm again' });
  expect(sent).toMatchObject({ data: { text: 'calm again' } });
});
