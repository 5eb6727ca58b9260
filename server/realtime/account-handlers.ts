import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { MessageWindows } from '../db/delivery/changes/plan';
import type { Db } from '../db/engine/open-database';
import { initialCounts } from '../db/messages';
import { formatIssues } from '../validation';
import { errorAck, splitArgs } from './ack';
import type { Presence } from './presence/presence';
import { rooms, type RealtimeSocket } from './types';

const initSchema = z.object({ id: z.number().int().positive() });

export function registerAccountHandlers(socket: RealtimeSocket, db: Db, presence: Presence, windows: MessageWindows, log: FastifyBaseLogger): void {
  socket.on('init', async (...args: unknown[]) => {
    const { payload, ack } = splitArgs(args);
    const parsed = initSchema.safeParse(payload);
    if (!parsed.success) return ack(errorAck({ non_field_errors: formatIssues(parsed.error.issues) }));
    const { id } = parsed.data;
    if (id !== socket.data.userId) return ack(errorAck({ msg: 'You can only subscribe to your own account.' }));
    try {
      // The room first: a message stored from here on reaches this socket live; one stored between
      // the join and the count is counted by both, one too many until the next read (docs/DELIVERY.md).
      const inbox = rooms.inbox(id);
      await socket.join(inbox);
      // The account may have been deactivated between the handshake and this init.
      const account = await initialCounts(db, id);
      if (!account?.active) {
        await socket.leave(inbox);
        ack(errorAck({ msg: 'This account has been deactivated.' }));
        socket.disconnect(true);
        return;
      }
      socket.emit('message_count', { count: account.unread });
      // The windows too: the client offers editing and unsending only while the server allows them.
      ack({ data: { id, edit_window_ms: windows.editWindowMs, unsend_window_ms: windows.unsendWindowMs } });
      // Once per socket, and never for one that went while this init was under way (its
      // disconnect has already run and would never take it back out).
      if (!socket.data.present && socket.connected) {
        socket.data.present = true;
        presence.connected(id, account.showPresence);
      }
    } catch (error) {
      log.error({ err: error }, 'socket init failed');
      ack(errorAck({ msg: 'Internal server error' }));
    }
  });
}
