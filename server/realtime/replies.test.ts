import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Ack, Attachment, ChangeResult, ConversationMessage, ConversationSummaryPage, ConversationSyncResult, ConversationThreadPage } from '../../lib/contract';
import { REPLY_SNIPPET_LENGTH } from '../../lib/contract';
import { insertMessage } from '../../testing/database';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, nextEvent } from '../test/socket-client';
import { serverWithTabs } from '../test/tabs';
import { rawUpload } from '../test/uploads';

const { t, tabs } = serverWithTabs(() => startTestServer());

const store = async (from: SignedInUser, to: SignedInUser, text = 'hello') =>
  (await insertMessage(t.db, { senderId: from.user.id, recipientId: to.user.id, clientId: randomUUID(), text })).message;
const pair = async () => Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);
const thread = async (viewer: SignedInUser, conversation: number) =>
  (await api<ConversationThreadPage>(t.url, `/c/${conversation}/messages`, { token: viewer.bearer })).body.results;

describe('send with reply_to', () => {
  it('stores the answered message and carries its summary live, in history, in sync and in the list', async () => {
    const [ann, ben] = await pair();
    const original = await store(ben, ann, 'First line\nsecond line');
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    const live = nextEvent<ConversationMessage>(benTab, 'message');
    const ack = await emitWithAck<Ack<ConversationMessage>>(annTab, 'send', {
      client_id: randomUUID(),
      recipient_id: ben.user.id,
      text: 'Answer',
      reply_to: original.id,
    });
    const summary = { id: original.id, sender_id: ben.user.id, text: 'First line\nsecond line', deleted: false, attachment: null };
    expect(ack).toMatchObject({ data: { text: 'Answer', reply_to: summary } });
    expect((await live).reply_to).toEqual(summary);
    if (!('data' in ack)) throw new Error(JSON.stringify(ack));
    expect((await thread(ben, ack.data.conversation_id))[0]!.reply_to).toEqual(summary);
    const sync = await emitWithAck<Ack<ConversationSyncResult>>(benTab, 'sync_conversation', { conversation_id: ack.data.conversation_id, after: 0 });
    if (!('data' in sync)) throw new Error(JSON.stringify(sync));
    expect(sync.data.messages.map((m) => m.reply_to)).toEqual([null, summary]);
    const list = (await api<ConversationSummaryPage>(t.url, '/c', { token: ann.bearer })).body;
    expect(list.results[0]!.last_message!.reply_to).toEqual(summary);
  });

  it('quotes the original as it is now: edited, unsent, cut to the snippet length, with its attachment', async () => {
    const [ann, ben] = await pair();
    const long = 'x'.repeat(REPLY_SNIPPET_LENGTH + 50);
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    const bytes = Buffer.from('plain text file');
    const uploaded = await rawUpload(
      t.url,
      { authorization: ben.bearer, 'x-file-name': 'notes.txt', 'content-type': 'text/plain', 'content-length': bytes.length },
      [bytes],
    );
    const upload = JSON.parse(uploaded.body) as Attachment;
    const withFile = await emitWithAck<Ack<ConversationMessage>>(benTab, 'send', {
      client_id: randomUUID(),
      recipient_id: ann.user.id,
      text: long,
      attachment_id: upload.id,
    });
    if (!('data' in withFile)) throw new Error(JSON.stringify(withFile));
    const reply = await emitWithAck<Ack<ConversationMessage>>(annTab, 'send', { client_id: randomUUID(), recipient_id: ben.user.id, text: 'Seen', reply_to: withFile.data.id });
    expect(reply).toMatchObject({
      data: { reply_to: { text: 'x'.repeat(REPLY_SNIPPET_LENGTH), attachment: { name: 'notes.txt', mime_type: 'text/plain' }, deleted: false } },
    });

    const edited = await emitWithAck<Ack<ChangeResult>>(benTab, 'edit', { message_id: withFile.data.id, text: 'Now shorter' });
    expect(edited).toHaveProperty('data');
    expect((await thread(ann, withFile.data.conversation_id))[0]!.reply_to).toMatchObject({ text: 'Now shorter', deleted: false });
    const unsent = await emitWithAck<Ack<ChangeResult>>(benTab, 'unsend', { message_id: withFile.data.id });
    expect(unsent).toHaveProperty('data');
    expect((await thread(ann, withFile.data.conversation_id))[0]!.reply_to).toEqual({
      id: withFile.data.id,
      sender_id: ben.user.id,
      text: '',
      deleted: true,
      attachment: null,
    });
  });

  it('refuses, with one final field error, an unknown id, another conversation and a message the sender hid', async () => {
    const [ann, ben] = await pair();
    const cat = await signIn(t.url, 'Cat');
    const theirs = await store(ben, cat, 'not for Ann');
    const hidden = await store(ben, ann, 'hidden by Ann');
    const annTab = await tabs.open(ann);
    const hide = await emitWithAck<Ack<ChangeResult>>(annTab, 'hide', { message_id: hidden.id });
    expect(hide).toHaveProperty('data');
    const refusal = { error: { non_field_errors: ['reply_to: No such message in this conversation.'] } };
    for (const replyTo of [theirs.id, hidden.id, 9_007_199_254_740_991]) {
      const ack = await emitWithAck(annTab, 'send', { client_id: randomUUID(), recipient_id: ben.user.id, text: 'x', reply_to: replyTo });
      expect(ack).toEqual(refusal);
    }
    // Ann's own messages and Ben's to her both qualify; an unsent original may still be answered.
    const mine = await store(ann, ben, 'mine');
    const ok = await emitWithAck<Ack<ConversationMessage>>(annTab, 'send', { client_id: randomUUID(), recipient_id: ben.user.id, text: 'y', reply_to: mine.id });
    expect(ok).toMatchObject({ data: { reply_to: { id: mine.id, sender_id: ann.user.id } } });
    for (const bad of [0, -1, 1.5, '12', true]) {
      const ack = await emitWithAck<Ack<ConversationMessage>>(annTab, 'send', { client_id: randomUUID(), recipient_id: ben.user.id, text: 'z', reply_to: bad });
      expect(ack).toMatchObject({ error: { non_field_errors: [expect.stringMatching(/^reply_to: /)] } });
    }
    expect((await thread(ben, mine.conversation_id)).map((m) => m.text)).toEqual(['y', 'mine', 'hidden by Ann']);
  });

  it('answers a resent client_id with the stored reply, even in one batch with its first send', async () => {
    const [ann, ben] = await pair();
    const original = await store(ben, ann, 'q');
    const clientId = randomUUID();
    const message = { senderId: ann.user.id, recipientId: ben.user.id, clientId, text: 'a', replyToId: original.id };
    const first = await insertMessage(t.db, message);
    const again = await insertMessage(t.db, message);
    expect(first.message.reply_to).toMatchObject({ id: original.id, text: 'q' });
    expect(again.created).toBe(false);
    expect(again.message).toEqual(first.message);
  });
});
