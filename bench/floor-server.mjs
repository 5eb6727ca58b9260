// The floor: a bare Socket.IO relay with nothing of Parley's, for comparison under the same load.
// No auth, no database, no validation: the user id comes from the handshake's auth, each socket
// joins its user's room, `init` is acknowledged, and `send` is acknowledged and emitted to the
// recipient's room as a message shaped like ours, protocol 2's (so both move about the same bytes).
// Same Socket.IO version as the server (the repository's), same path and packet limit.
import { createServer } from 'node:http';
import { Server } from 'socket.io';

const port = Number(process.env.PORT ?? 3999);
const host = process.env.HOST ?? '127.0.0.1';
// server/security/payload-limits.ts: MAX_SOCKET_PAYLOAD_BYTES
const MAX_SOCKET_PAYLOAD_BYTES = 64 * 1024;

const http = createServer((request, response) => {
  if (request.url === '/api/health') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"status":"ok"}');
    return;
  }
  response.writeHead(404);
  response.end();
});

const io = new Server(http, {
  path: '/socket.io',
  destroyUpgrade: false,
  serveClient: false,
  maxHttpBufferSize: MAX_SOCKET_PAYLOAD_BYTES,
});

let nextId = 0;
/** Each pair's conversation, by "low:high" user id: its id and its last seq. */
const conversations = new Map();
const conversationOf = (a, b) => {
  const key = a < b ? `${a}:${b}` : `${b}:${a}`;
  let conversation = conversations.get(key);
  if (!conversation) conversations.set(key, (conversation = { id: conversations.size + 1, seq: 0 }));
  return conversation;
};

io.on('connection', (socket) => {
  const userId = Number(socket.handshake.auth?.user_id);
  void socket.join(`user:${userId}`);
  socket.on('init', (payload, ack) => {
    if (typeof ack === 'function') ack({ data: { id: userId } });
  });
  socket.on('send', (payload, ack) => {
    const conversation = conversationOf(userId, payload.recipient_id);
    const seq = ++conversation.seq;
    // The one copy every member gets, the sender's ack included.
    const message = {
      id: ++nextId,
      conversation_id: conversation.id,
      seq,
      version: seq,
      client_id: payload.client_id,
      sender_id: userId,
      text: payload.text,
      attachment: null,
      attachment_removed: false,
      created_at: new Date().toISOString(),
      edited_at: null,
      deleted: false,
      reactions: [],
      reply_to: null,
    };
    if (typeof ack === 'function') ack({ data: message });
    io.to(`user:${payload.recipient_id}`).emit('message', message);
  });
});

http.listen(port, host, () => console.log(`floor ready on http://${host}:${port}`));
const stop = () => io.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
