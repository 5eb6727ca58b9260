import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Ack, InitPayload, MessageCountPayload } from '../../lib/contract';
import { insertMessage, readConversation } from '../../testing/database';
import { setUserActive } from '../db/users';
import { signIn, startTestServer, type SignedInUser, type TestServer } from '../test/helpers';
import { connectSocket, emitWithAck, nextEvent, type ClientSocket } from '../test/socket-client';

let t: TestServer;
let alice: SignedInUser;
let bob: SignedInUser;
const open: ClientSocket[] = [];

beforeAll(async () => {
  t = await startTestServer();
  [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
});
afterEach(() => {
  for (const socket of open.splice(0)) socket.close();
});
afterAll(() => t.close());

async function connect(user: SignedInUser): Promise<ClientSocket> {
  const socket = await connectSocket(t.url, user.bearer);
  open.push(socket);
  return socket;
}

/** Every message_count the socket receives, in order. */
function recordCounts(socket: ClientSocket): number[] {
  const counts: number[] = [];
  socket.on('message_count', ({ count }) => counts.push(count));
  return counts;
}

describe('init', () => {
  it('joins the user and sends the real unread count', async () => {
    const carol = await signIn(t.url, 'Carol');
    await insertMessage(t.db, { senderId: bob.user.id, recipientId: carol.user.id, clientId: 'm0', text: 'old' });
    await readConversation(t.db, carol.user.id, bob.user.id);
    await insertMessage(t.db, { senderId: bob.user.id, recipientId: carol.user.id, clientId: 'm1', text: 'hi' });
    await insertMessage(t.db, { senderId: alice.user.id, recipientId: carol.user.id, clientId: 'm2', text: 'yo' });
    // Carol's own outgoing message is not unread for her.
    await insertMessage(t.db, { senderId: carol.user.id, recipientId: bob.user.id, clientId: 'm4', text: 'sent' });

    const socket = await connect(carol);
    const count = nextEvent<MessageCountPayload>(socket, 'message_count');
    const ack = await emitWithAck<Ack<InitPayload>>(socket, 'init', { id: carol.user.id });

    expect(ack).toEqual({ data: { id: carol.user.id, edit_window_ms: 15 * 60_000, unsend_window_ms: 24 * 3_600_000 } });
    expect(await count).toEqual({ count: 2 });
    const rooms = (await t.server.io.in(`user2:${carol.user.id}`).fetchSockets()).map((s) => s.id);
    expect(rooms).toEqual([socket.id]);
  });

  it('sends zero when nothing is unread', async () => {
    const dave = await signIn(t.url, 'Dave');
    const socket = await connect(dave);
    const count = nextEvent<MessageCountPayload>(socket, 'message_count');
    await emitWithAck(socket, 'init', { id: dave.user.id });
    expect(await count).toEqual({ count: 0 });
  });

  it("refuses someone else's id: error ack, no room, no count", async () => {
    const socket = await connect(alice);
    const counts = recordCounts(socket);

    const ack = await emitWithAck<Ack<InitPayload>>(socket, 'init', { id: bob.user.id });
    expect(ack).toEqual({ error: { msg: expect.any(String) } });
    expect(await t.server.io.in(`user2:${bob.user.id}`).fetchSockets()).toHaveLength(0);

    // A following valid init proves the listener works, so the empty list above means something.
    await emitWithAck(socket, 'init', { id: alice.user.id });
    await expect.poll(() => counts).toHaveLength(1);
  });

  it.each([
    ['no payload', []],
    ['a string id', [{ id: String(1) }]],
    ['a fractional id', [{ id: 1.5 }]],
    ['null', [null]],
    ['a bare number', [7]],
  ])('answers %s with an error ack', async (_label, args) => {
    const socket = await connect(alice);
    const counts = recordCounts(socket);
    const ack = await emitWithAck<Ack<InitPayload>>(socket, 'init', ...args);
    // A successful init emits message_count before its ack, and events arrive in order.
    expect(ack).toEqual({ error: { non_field_errors: [expect.any(String)] } });
    expect(socket.connected).toBe(true);
    expect(counts).toEqual([]);
  });

  it('refuses an account deactivated since the handshake: error ack, no room, disconnected', async () => {
    const erin = await signIn(t.url, 'Erin');
    const socket = await connect(erin);
    const counts = recordCounts(socket);
    await setUserActive(t.db, erin.user.id, false);
    const disconnected = nextEvent(socket, 'disconnect');

    const ack = await emitWithAck<Ack<InitPayload>>(socket, 'init', { id: erin.user.id });
    expect(ack).toEqual({ error: { msg: 'This account has been deactivated.' } });
    await disconnected;
    expect(await t.server.io.in(`user2:${erin.user.id}`).fetchSockets()).toHaveLength(0);
    expect(counts).toEqual([]);
  });

  it('survives an init without an ack callback', async () => {
    const socket = await connect(alice);
    const count = nextEvent<MessageCountPayload>(socket, 'message_count');
    socket.emit('init', { id: alice.user.id });
    expect(await count).toEqual({ count: 0 });
  });
});
