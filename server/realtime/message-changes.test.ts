import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AccountItem, AccountSyncResult, Ack, Attachment, ChangeResult, ConversationChange, ConversationMessage, ConversationSummaryPage, ConversationSyncResult, ConversationThreadPage, MessageCountPayload } from '../../lib/contract';
import { MAX_REACTIONS_PER_PERSON, QUICK_REACTIONS } from '../../lib/contract';
import { directConversationId, insertMessage } from '../../testing/database';
import { messages } from '../db/schema';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, nextEvent, type ClientSocket } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';
import { filesIn, rawUpload } from '../test/uploads';

const { t, tabs } = serverWithTabs(() => startTestServer());

/** A message stored as sent, and the direct conversation it is in. */
async function store(from: SignedInUser, to: SignedInUser, text = 'hello') {
  const { message } = await insertMessage(t.db, { senderId: from.user.id, recipientId: to.user.id, clientId: randomUUID(), text });
  return { ...message, conversation: await directConversationId(t.db, from.user.id, to.user.id) };
}

async function change(socket: ClientSocket, event: 'react' | 'edit' | 'unsend' | 'hide', payload: object): Promise<ConversationChange | AccountItem | null> {
  const ack = await emitWithAck<Ack<ChangeResult>>(socket, event, payload);
  if (!('data' in ack)) throw new Error(JSON.stringify(ack));
  return ack.data.change;
}
const refusal = (socket: ClientSocket, event: string, payload: object) => emitWithAck<Ack<ChangeResult>>(socket, event, payload);
const fieldError = (message: string) => ({ error: { non_field_errors: [message] } });

async function thread(viewer: SignedInUser, conversation: number): Promise<ConversationMessage[]> {
  return (await api<ConversationThreadPage>(t.url, `/c/${conversation}/messages`, { token: viewer.bearer })).body.results;
}
async function list(viewer: SignedInUser): Promise<ConversationSummaryPage> {
  return (await api<ConversationSummaryPage>(t.url, '/c', { token: viewer.bearer })).body;
}
async function ask<T>(socket: ClientSocket, event: string, payload: object): Promise<T> {
  const ack = await emitWithAck<Ack<T>>(socket, event, payload);
  if (!('data' in ack)) throw new Error(JSON.stringify(ack));
  return ack.data;
}
const syncConversation = (socket: ClientSocket, conversation: number) => ask<ConversationSyncResult>(socket, 'sync_conversation', { conversation_id: conversation, after: 0 });
const syncAccount = (socket: ClientSocket, cursor?: string) => ask<AccountSyncResult>(socket, 'sync_account', cursor === undefined ? {} : { cursor });
const pair = async () => Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);

describe('react', () => {
  it('adds and removes reactions, tells both people the same change by the conversation’s seq, and stores the summary', async () => {
    const [ann, ben] = await pair();
    const message = await store(ben, ann); // the conversation's seq 1
    const [annTab, annOther, benTab] = await Promise.all([tabs.open(ann), tabs.open(ann), tabs.open(ben)]);
    await store(ben, await signIn(t.url, 'Cat'), 'ben only'); // another conversation: no seq of this one
    const heardBy = [annTab, annOther, benTab].map((tab) => record(tab, 'message_change'));

    const added = await change(annTab, 'react', { message_id: message.id, emoji: '👍', add: true });
    const summary = [{ emoji: '👍', user_ids: [ann.user.id] }];
    expect(added).toEqual({ conversation_id: message.conversation, seq: 2, message_id: message.id, actor_id: ann.user.id, kind: 'reaction', reactions: summary });
    await change(benTab, 'react', { message_id: message.id, emoji: '👍', add: true });
    await change(benTab, 'react', { message_id: message.id, emoji: '🇫🇷', add: true });
    const both = [
      { emoji: '👍', user_ids: [ann.user.id, ben.user.id] },
      { emoji: '🇫🇷', user_ids: [ben.user.id] },
    ];
    // Adding it again changes nothing: no seq, no event.
    expect(await change(annTab, 'react', { message_id: message.id, emoji: '👍', add: true })).toBeNull();
    await expect.poll(() => heardBy.map((changes) => changes.length)).toEqual([3, 3, 3]);
    expect(heardBy[0]!.map((c) => c.seq)).toEqual([2, 3, 4]);
    expect(heardBy[0]![0]).toEqual(added);
    expect(heardBy[0]!.at(-1)).toEqual({ conversation_id: message.conversation, seq: 4, message_id: message.id, actor_id: ben.user.id, kind: 'reaction', reactions: both });
    // One copy for every member's tabs.
    expect(heardBy[1]).toEqual(heardBy[0]);
    expect(heardBy[2]).toEqual(heardBy[0]);

    const [forAnn] = await thread(ann, message.conversation);
    expect(forAnn).toMatchObject({ reactions: both, version: 4, seq: 1 });
    expect((await thread(ben, message.conversation))[0]).toEqual(forAnn);

    expect(await change(benTab, 'react', { message_id: message.id, emoji: '👍', add: false })).toMatchObject({
      seq: 5,
      reactions: [{ emoji: '👍', user_ids: [ann.user.id] }, { emoji: '🇫🇷', user_ids: [ben.user.id] }],
    });
    expect(await change(benTab, 'react', { message_id: message.id, emoji: '👍', add: false })).toBeNull();
  });

  it('refuses what may not be reacted to, in plain field errors', async () => {
    const [ann, ben] = await pair();
    const cat = await signIn(t.url, 'Cat');
    const message = await store(ben, ann);
    const theirs = await store(ben, cat);
    const annTab = await tabs.open(ann);
    expect(await refusal(annTab, 'react', { message_id: theirs.id, emoji: '👍', add: true })).toEqual(fieldError('message_id: Message not found.'));
    expect(await refusal(annTab, 'react', { message_id: 9_000_000_000, emoji: '👍', add: true })).toEqual(fieldError('message_id: Message not found.'));
    for (const emoji of ['a', '👍👍', '❤', ' 👍', '']) {
      expect(await refusal(annTab, 'react', { message_id: message.id, emoji, add: true })).toEqual(fieldError('emoji: Must be one emoji.'));
    }
    const many = ['😀', '😃', '😄', '😁', '😆', '😅', '🤣', '😊', '😇', '🙂', '🙃', '😉', '😌'];
    for (const emoji of many.slice(0, MAX_REACTIONS_PER_PERSON)) await change(annTab, 'react', { message_id: message.id, emoji, add: true });
    expect(await refusal(annTab, 'react', { message_id: message.id, emoji: many[MAX_REACTIONS_PER_PERSON]!, add: true })).toEqual(
      fieldError(`emoji: At most ${MAX_REACTIONS_PER_PERSON} different reactions per message.`),
    );

    // A block either way stops reactions, as it stops messages.
    expect((await api(t.url, `/users/${ann.user.id}/block`, { method: 'PUT', token: ben.bearer })).status).toBe(200);
    expect(await refusal(annTab, 'react', { message_id: message.id, emoji: QUICK_REACTIONS[0], add: false })).toEqual(
      fieldError("message_id: You can't message this person."),
    );
  });
});

describe('edit', () => {
  it('changes the text of one’s own message for both, everywhere, the list preview included', async () => {
    const [ann, ben] = await pair();
    const message = await store(ann, ben, 'See you at 5?');
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    const benHears = nextEvent<ConversationChange>(benTab, 'message_change');
    const edited = await change(annTab, 'edit', { message_id: message.id, text: 'See you at 6?' });
    expect(edited).toEqual({
      conversation_id: message.conversation,
      seq: 2,
      message_id: message.id,
      actor_id: ann.user.id,
      kind: 'edit',
      text: 'See you at 6?',
      edited_at: expect.stringMatching(/Z$/),
    });
    expect(await benHears).toEqual(edited);
    const editedAt = edited?.kind === 'edit' ? edited.edited_at : null;
    expect((await thread(ben, message.conversation))[0]).toMatchObject({ text: 'See you at 6?', edited_at: editedAt, version: 2 });
    expect((await list(ben)).results[0]?.last_message).toMatchObject({ text: 'See you at 6?', version: 2 });
    expect(await change(annTab, 'edit', { message_id: message.id, text: 'See you at 6?' })).toBeNull();
  });

  it('refuses someone else’s message, an empty text, an unsent message and one past the window', async () => {
    const [ann, ben] = await pair();
    const mine = await store(ann, ben);
    const theirs = await store(ben, ann);
    const annTab = await tabs.open(ann);
    expect(await refusal(annTab, 'edit', { message_id: theirs.id, text: 'mine now' })).toEqual(fieldError('message_id: This is not your message.'));
    expect(await refusal(annTab, 'edit', { message_id: mine.id, text: '   ' })).toEqual(fieldError('text: A message needs text or an attachment.'));
    expect(await refusal(annTab, 'edit', { message_id: mine.id, text: 'x'.repeat(4_001) })).toEqual({
      error: { non_field_errors: [expect.stringMatching(/^text: /)] },
    });
    await t.db.update(messages).set({ createdAt: sql`now() - interval '16 minutes'` }).where(eq(messages.id, mine.id));
    expect(await refusal(annTab, 'edit', { message_id: mine.id, text: 'too late' })).toEqual(fieldError('message_id: It is too late to change this message.'));
    const gone = await store(ann, ben);
    await change(annTab, 'unsend', { message_id: gone.id });
    expect(await refusal(annTab, 'edit', { message_id: gone.id, text: 'back' })).toEqual(fieldError('message_id: This message was deleted.'));
    expect(await refusal(annTab, 'react', { message_id: gone.id, emoji: '👍', add: true })).toEqual(fieldError('message_id: This message was deleted.'));
  });
});

describe('unsend', () => {
  it('removes the message for everyone, its file from storage, and an unread one from the counts', async () => {
    const [ann, ben] = await pair();
    const annTab = await tabs.open(ann);
    const bytes = Buffer.from('a secret plan');
    const upload = await rawUpload(
      t.url,
      { authorization: ann.bearer, 'x-file-name': 'plan.txt', 'content-type': 'text/plain', 'content-length': bytes.length },
      [bytes],
    );
    const attachment = JSON.parse(upload.body) as Attachment;
    const sent = await emitWithAck<Ack<ConversationMessage>>(annTab, 'send', { client_id: randomUUID(), recipient_id: ben.user.id, text: 'the plan', attachment_id: attachment.id });
    if (!('data' in sent)) throw new Error(JSON.stringify(sent));
    const conversation = sent.data.conversation_id;
    await store(ann, ben, 'and another');
    expect((await list(ben)).results[0]?.unread_count).toBe(2);
    expect(await filesIn(t.uploadsDir)).toHaveLength(1);

    const benTab = await tabs.open(ben);
    const { cursor } = await syncAccount(benTab);
    const benHears = nextEvent<ConversationChange>(benTab, 'message_change');
    const benCount = nextEvent<MessageCountPayload>(benTab, 'message_count');
    const unsent = await change(annTab, 'unsend', { message_id: sent.data.id });
    expect(unsent).toEqual({ conversation_id: conversation, seq: 3, message_id: sent.data.id, actor_id: ann.user.id, kind: 'unsend' });
    expect(await benHears).toEqual(unsent);
    expect(await benCount).toEqual({ count: 1 });
    // The change is the same for both, so it carries no one's count: Ben's catch-up brings his.
    expect(await syncAccount(benTab, cursor)).toMatchObject({ items: [], conversations: [{ conversation_id: conversation, unread_count: 1 }] });
    expect((await list(ben)).results[0]?.unread_count).toBe(1);

    const [gone] = (await thread(ben, conversation)).filter((message) => message.id === sent.data.id);
    expect(gone).toMatchObject({ deleted: true, text: '', attachment: null, reactions: [], version: 3 });
    await expect.poll(() => filesIn(t.uploadsDir)).toEqual([]);
    expect((await fetch(`${t.url}${attachment.url}`)).status).toBe(404);
    expect(await change(annTab, 'unsend', { message_id: sent.data.id })).toBeNull();
  });

  it('refuses someone else’s message and one past the window', async () => {
    const [ann, ben] = await pair();
    const theirs = await store(ben, ann);
    const mine = await store(ann, ben);
    const annTab = await tabs.open(ann);
    expect(await refusal(annTab, 'unsend', { message_id: theirs.id })).toEqual(fieldError('message_id: This is not your message.'));
    await t.db.update(messages).set({ createdAt: sql`now() - interval '25 hours'` }).where(eq(messages.id, mine.id));
    expect(await refusal(annTab, 'unsend', { message_id: mine.id })).toEqual(fieldError('message_id: It is too late to change this message.'));
    // Hiding stays possible: it changes nothing for the other person.
    expect(await change(annTab, 'hide', { message_id: mine.id })).toMatchObject({ kind: 'hide' });
  });
});

describe('hide (delete for me)', () => {
  it('hides the message from the person’s threads, list and sync only, on all their devices', async () => {
    const [ann, ben] = await pair();
    const first = await store(ben, ann, 'first');
    const last = await store(ben, ann, 'last, unread');
    const conversation = first.conversation;
    const [annTab, annOther, benTab] = await Promise.all([tabs.open(ann), tabs.open(ann), tabs.open(ben)]);
    const benHeard = [record(benTab, 'message_change'), record(benTab, 'account_item')];
    const annChanges = record(annOther, 'message_change');
    const otherHears = nextEvent<AccountItem>(annOther, 'account_item');
    const count = nextEvent<MessageCountPayload>(annOther, 'message_count');

    // Ann's own item, by her account's seq (her first): no change to the message for anyone.
    const hidden = await change(annTab, 'hide', { message_id: last.id });
    expect(hidden).toEqual({
      seq: 1,
      conversation_id: conversation,
      kind: 'hide',
      message_id: last.id,
      preview: expect.objectContaining({ id: first.id, conversation_id: conversation, seq: 1, text: 'first' }),
      unread_count: 1,
    });
    expect(await otherHears).toEqual(hidden);
    expect(await count).toEqual({ count: 1 });
    expect(annChanges).toEqual([]);
    expect((await thread(ann, conversation)).map((message) => message.text)).toEqual(['first']);
    expect((await thread(ben, conversation)).map((message) => message.text)).toEqual(['last, unread', 'first']);
    expect((await syncConversation(annTab, conversation)).messages.map((message) => message.text)).toEqual(['first']);
    expect((await list(ann)).results[0]).toMatchObject({ unread_count: 1, last_message: { id: first.id } });
    expect(await change(annTab, 'hide', { message_id: last.id })).toBeNull();
    // Hidden is gone for her: nothing more can be done to it.
    expect(await refusal(annTab, 'react', { message_id: last.id, emoji: '👍', add: true })).toEqual(fieldError('message_id: Message not found.'));

    // Every message hidden: the conversation leaves her list until someone writes again.
    await change(annTab, 'hide', { message_id: first.id });
    expect((await list(ann)).results).toEqual([]);
    await store(ben, ann, 'again');
    expect((await list(ann)).results.map((row) => row.last_message?.text)).toEqual(['again']);
    expect(benHeard).toEqual([[], []]);
  });
});

describe('every change takes the next seq of what it concerns', () => {
  it('numbers a conversation’s messages and changes together, without gaps, and one’s own items in one’s account, as sync returns them', async () => {
    const [ann, ben] = await pair();
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    const sent = await emitWithAck<Ack<ConversationMessage>>(annTab, 'send', { client_id: randomUUID(), recipient_id: ben.user.id, text: 'one' });
    if (!('data' in sent)) throw new Error(JSON.stringify(sent));
    const conversation = sent.data.conversation_id;
    await change(benTab, 'react', { message_id: sent.data.id, emoji: '❤️', add: true });
    await change(annTab, 'edit', { message_id: sent.data.id, text: 'one!' });
    await emitWithAck(benTab, 'read', { conversation_id: conversation });
    await change(benTab, 'hide', { message_id: sent.data.id });
    await change(annTab, 'react', { message_id: sent.data.id, emoji: '👍', add: true });

    // The conversation: message, reaction, edit, reaction; Ben's read and deletion for himself are his, not its.
    const stream = await syncConversation(annTab, conversation);
    expect([...stream.messages, ...stream.changes].map((item) => [item.seq, 'kind' in item ? item.kind : 'message'])).toEqual([
      [1, 'message'],
      [2, 'reaction'],
      [3, 'edit'],
      [4, 'reaction'],
    ]);
    expect(stream).toMatchObject({ through: 4, last_seq: 4, has_more: false });
    // Ben's account: his read, then his deletion; Ann's has nothing of its own.
    expect((await syncAccount(benTab, '0.0.0.0')).items.map((item) => [item.seq, item.kind])).toEqual([
      [1, 'read'],
      [2, 'hide'],
    ]);
    expect((await syncAccount(annTab, '0.0.0.0')).items).toEqual([]);
  });
});
