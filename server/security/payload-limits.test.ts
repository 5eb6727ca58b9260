import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io as connect } from 'socket.io-client';
import { MAX_MESSAGE_LENGTH, SOCKET_PROTOCOL } from '../../lib/contract';
import { api, signIn, startTestServer, type SignedInUser, type TestServer } from '../test/helpers';
import { send, type ClientSocket } from '../test/socket-client';
import { pngBytes, rawUpload } from '../test/uploads';
import { MAX_JSON_BODY_BYTES, MAX_SOCKET_PAYLOAD_BYTES } from './payload-limits';

let t: TestServer;
let alice: SignedInUser;
let bob: SignedInUser;
beforeAll(async () => {
  t = await startTestServer();
  [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
});
afterAll(() => t.close());

type Transport = 'polling' | 'websocket';
const open: ClientSocket[] = [];
afterEach(() => {
  for (const socket of open.splice(0)) socket.close();
});

async function initialisedTab(user: SignedInUser, transport: Transport): Promise<ClientSocket> {
  const socket: ClientSocket = connect(t.url, { auth: { token: user.bearer, protocol: SOCKET_PROTOCOL }, transports: [transport], reconnection: false, forceNew: true });
  open.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  await socket.timeout(5_000).emitWithAck('init', { id: user.user.id });
  return socket;
}

it('keeps the socket limit well above the largest legitimate send', () => {
  // Every UTF-16 unit escaped as \uXXXX: 6 bytes each.
  expect(MAX_SOCKET_PAYLOAD_BYTES).toBeGreaterThanOrEqual(2 * MAX_MESSAGE_LENGTH * 6);
  expect(MAX_SOCKET_PAYLOAD_BYTES).toBe(64 * 1024);
});

describe.each<Transport>(['websocket', 'polling'])('socket payload limit (%s)', (transport) => {
  it('delivers the longest message in its most expensive encoding', async () => {
    const socket = await initialisedTab(alice, transport);
    // Control characters: each one a 6-byte \u00XX escape in the JSON packet.
    const text = 'a' + '\u0001'.repeat(MAX_MESSAGE_LENGTH - 1);
    const ack = await send(socket, bob, text);
    expect('data' in ack && ack.data.text).toBe(text);
  });

  it('closes the connection on an oversized packet, and the server carries on', async () => {
    const socket = await initialisedTab(alice, transport);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    const ack = send(socket, bob, 'x'.repeat(MAX_SOCKET_PAYLOAD_BYTES + 1));
    expect(await closed).toMatch(/^transport (close|error)$/);
    await expect(ack).rejects.toThrow(); // never answered
    const again = await initialisedTab(alice, transport);
    const normal = await send(again, bob, 'still here');
    expect('data' in normal && normal.data.text).toBe('still here');
  });
});

describe('HTTP body limits', () => {
  it('refuses a JSON body over the limit with 413 {msg}', async () => {
    const response = await api(t.url, '/accounts/authorize', {
      method: 'POST',
      json: { id_token: 'x'.repeat(MAX_JSON_BODY_BYTES) },
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ msg: 'The request body is too large.' });
  });

  it('still takes uploads far larger than the JSON limit', async () => {
    const file = Buffer.concat([pngBytes(8, 8), Buffer.alloc(4 * MAX_JSON_BODY_BYTES)]);
    const response = await rawUpload(
      t.url,
      { authorization: alice.bearer, 'x-file-name': 'big.png', 'content-length': file.length },
      [file],
    );
    expect(response.status).toBe(201);
    expect(JSON.parse(response.body)).toMatchObject({ size: file.length, mime_type: 'image/png' });
  });
});
