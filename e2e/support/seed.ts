// Messages sent straight over a socket of the sender's own, for specs that need many of them.
import { randomUUID } from 'node:crypto';
import { expect } from '@playwright/test';
import type { Ack, ConversationMessage } from '../../lib/contract';
import { connectSocket, emitWithAck } from '../../server/test/socket-client';
import type { SignedIn } from '../fixtures';
import { E2E_BASE_URL } from './env';

/** Sends messages from `from` to `to` over a socket of their own (faster than typing them), retrying what the send limit turns away. */
export async function seed(from: SignedIn, to: SignedIn, texts: string[], replyTo?: number): Promise<ConversationMessage[]> {
  const socket = await connectSocket(E2E_BASE_URL, from.token);
  try {
    const init = await emitWithAck<Ack<unknown>>(socket, 'init', { id: from.person.id });
    expect(init).toHaveProperty('data');
    const sent: ConversationMessage[] = [];
    for (const [index, text] of texts.entries()) {
      const payload = { client_id: randomUUID(), recipient_id: to.person.id, text, ...(replyTo && index === texts.length - 1 ? { reply_to: replyTo } : {}) };
      for (;;) {
        const ack = await emitWithAck<Ack<ConversationMessage>>(socket, 'send', payload);
        if ('data' in ack) {
          sent.push(ack.data);
          break;
        }
        expect(ack.error).toHaveProperty('msg'); // a limit, not a refusal: the same client_id again
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    return sent;
  } finally {
    socket.close();
  }
}

