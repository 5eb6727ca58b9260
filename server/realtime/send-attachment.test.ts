import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ack, Attachment, MessagePayload } from '../../lib/contract';
import { signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, nextEvent } from '../test/socket-client';
import { serverWithTabs } from '../test/tabs';
import { pngBytes } from '../test/uploads';

const { t, tabs } = serverWithTabs(() => startTestServer());
let alice: SignedInUser;
let bob: SignedInUser;
beforeAll(async () => {
  [alice, bob] = await Promise.all([signIn(t.url, 'Alice'), signIn(t.url, 'Bob')]);
});

async function uploadPng(user: SignedInUser, name: string): Promise<Attachment> {
  const response = await fetch(`${t.url}/api/uploads`, {
    method: 'POST',
    headers: { authorization: user.bearer, 'content-type': 'image/png', 'x-file-name': encodeURIComponent(name) },
    body: new Uint8Array(pngBytes(32, 16)),
  });
  if (response.status !== 201) throw new Error(`upload failed: ${response.status}`);
  return (await response.json()) as Attachment;
}

describe('send with an uploaded attachment', () => {
  it('delivers the attachment (url, size, dimensions) to the recipient, and the file is fetchable', async () => {
    const attachment = await uploadPng(alice, 'cat.png');
    const [aliceTab, bobTab] = await Promise.all([tabs.open(alice), tabs.open(bob)]);
    const received = nextEvent<MessagePayload>(bobTab, 'message');
    const ack = await emitWithAck<Ack<MessagePayload>>(aliceTab, 'send', {
      client_id: randomUUID(),
      recipient_id: bob.user.id,
      text: '',
      attachment_id: attachment.id,
    });
    expect(ack).toEqual({ data: expect.objectContaining({ attachment }) });
    const message = await received;
    expect(message.attachment).toEqual({
      id: attachment.id,
      name: 'cat.png',
      mime_type: 'image/png',
      size: pngBytes(32, 16).length,
      width: 32,
      height: 16,
      url: `/api/uploads/${attachment.id}/cat.png`,
    });
    const file = await fetch(`${t.url}${message.attachment!.url}`);
    expect(Buffer.from(await file.arrayBuffer()).equals(pngBytes(32, 16))).toBe(true);
  });

  it('refuses another user’s upload', async () => {
    const attachment = await uploadPng(alice, 'mine.png');
    const bobTab = await tabs.open(bob);
    const ack = await emitWithAck(bobTab, 'send', {
      client_id: randomUUID(),
      recipient_id: alice.user.id,
      text: 'look',
      attachment_id: attachment.id,
    });
    expect(ack).toEqual({ error: { non_field_errors: ['attachment_id: No such upload of yours.'] } });
  });
});
