import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Ack, Attachment, ChangeResult, ConversationPage, MessageChange, MessageCountPayload, MessagePayload, Page } from '../../lib/contract';
import { MAX_REACTIONS_PER_PERSON, QUICK_REACTIONS } from '../../lib/contract';
import { insertMessage } from '../../testing/database';
import { messages, users } from '../db/schema';
import { api, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, nextEvent, type ClientSocket } from '../test/socket-client';
import { record, serverWithTabs } from '../test/tabs';
import { filesIn, rawUpload } from '../test/uploads';

// Tabs on protocol 1 unless a test names another, until protocol 1 goes (docs/design/conversations.md, step 9 (a)).
const { t, tabs } = serverWithTabs(() => startTestServer(), { protocol: 1 });

const store = async (from: SignedInUser, to: SignedInUser, text = 'hello') =>
  (await insertMessage(t.db, { senderId: from.user.id, recipientId: to.user.id, clientId: randomUUID(), text })).message;

async function change(socket: ClientSocket, event: 'react' | 'edit' | 'unsend' | 'hide', payload: object): Promise<MessageChange | null> {
  const ack = await emitWithAck<Ack<ChangeResult>>(socket, event, payload);
  if (!('data' in ack)) throw new Error(JSON.stringify(ack));
  return ack.data.change;
}
const refusal = (socket: ClientSocket, event: string, payload: object) => emitWithAck<Ack<ChangeResult>>(socket, event, payload);
const fieldError = (message: string) => ({ error: { non_field_errors: [message] } });

async function thread(viewer: SignedInUser, peer: SignedInUser): Promise<MessagePayload[]> {
  const page = await api<Page<MessagePayload>>(t.url, `/conversations/${peer.user.id}/messages`, { token: viewer.bearer });
  return page.body.results;
}
async function list(viewer: SignedInUser): Promise<ConversationPage> {
  return (await api<ConversationPage>(t.url, '/conversations', { token: viewer.bearer })).body;
}
const pair = async () => Promise.all([signIn(t.url, 'Ann'), signIn(t.url, 'Ben')]);

describe('react', () => {
  it('adds and removes reactions, tells both people with their own seqs, and stores the summary', async () => {
    const [ann, ben] = await pair();
    const message = await store(ben, ann); // seq 1 for both
    const [annTab, annOther, benTab] = await Promise.all([tabs.open(ann), tabs.open(ann), tabs.open(ben)]);
    await store(ben, (await signIn(t.url, 'Cat')), 'ben only'); // Ben's seq 2: the two streams differ from here
    const heard = [annTab, annOther, benTab].map((tab) => record(tab, 'message_change'));

    const added = await change(annTab, 'react', { message_id: message.id, emoji: '👍', add: true });
    const summary = [{ emoji: '👍', user_ids: [ann.user.id] }];
    expect(added).toEqual({ kind: 'reaction', seq: 2, message_id: message.id, peer_id: ben.user.id, reactions: summary });
    await change(benTab, 'react', { message_id: message.id, emoji: '👍', add: true });
    await change(benTab, 'react', { message_id: message.id, emoji: '🇫🇷', add: true });
    const both = [
      { emoji: '👍', user_ids: [ann.user.id, ben.user.id] },
      { emoji: '🇫🇷', user_ids: [ben.user.id] },
    ];
    // Adding it again changes nothing: no seq, no event.
    expect(await change(annTab, 'react', { message_id: message.id, emoji: '👍', add: true })).toBeNull();
    await expect.poll(() => heard[2]!.length).toBe(3);
    expect(heard[0]!.map((c) => c.seq)).toEqual([2, 3, 4]);
    expect(heard[1]).toEqual(heard[0]);
    expect(heard[2]!.map((c) => c.seq)).toEqual([3, 4, 5]);
    expect(heard[2]!.at(-1)).toEqual({ kind: 'reaction', seq: 5, message_id: message.id, peer_id: ann.user.id, reactions: both });

    expect((await thread(ann, ben))[0]).toMatchObject({ reactions: both, version: 4, seq: 1 });
    expect((await thread(ben, ann))[0]).toMatchObject({ reactions: both, version: 5, seq: 1 });

    expect(await change(benTab, 'react', { message_id: message.id, emoji: '👍', add: false })).toMatchObject({
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
    const benHears = nextEvent<MessageChange>(benTab, 'message_change');
    const edited = await change(annTab, 'edit', { message_id: message.id, text: 'See you at 6?' });
    expect(edited).toEqual({
      kind: 'edit',
      seq: 2,
      message_id: message.id,
      peer_id: ben.user.id,
      text: 'See you at 6?',
      edited_at: expect.stringMatching(/Z$/),
    });
    expect(await benHears).toEqual({ ...edited, peer_id: ann.user.id });
    expect((await thread(ben, ann))[0]).toMatchObject({ text: 'See you at 6?', edited_at: edited?.kind === 'edit' ? edited.edited_at : null });
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
    const sent = await emitWithAck<Ack<MessagePayload>>(annTab, 'send', { client_id: randomUUID(), recipient_id: ben.user.id, text: 'the plan', attachment_id: attachment.id });
    if (!('data' in sent)) throw new Error(JSON.stringify(sent));
    await store(ann, ben, 'and another');
    expect((await list(ben)).results[0]?.unread_count).toBe(2);
    expect(await filesIn(t.uploadsDir)).toHaveLength(1);

    const benTab = await tabs.open(ben);
    const benHears = nextEvent<MessageChange>(benTab, 'message_change');
    const benCount = nextEvent<MessageCountPayload>(benTab, 'message_count');
    const unsent = await change(annTab, 'unsend', { message_id: sent.data.id });
    expect(unsent).toEqual({ kind: 'unsend', seq: 3, message_id: sent.data.id, peer_id: ben.user.id });
    expect(await benHears).toEqual({ kind: 'unsend', seq: 3, message_id: sent.data.id, peer_id: ann.user.id, unread_count: 1 });
    expect(await benCount).toEqual({ count: 1 });
    expect((await list(ben)).results[0]?.unread_count).toBe(1);

    const [gone] = (await thread(ben, ann)).filter((message) => message.id === sent.data.id);
    expect(gone).toMatchObject({ deleted: true, text: '', attachment: null, reactions: [] });
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
    const [annTab, annOther, benTab] = await Promise.all([tabs.open(ann), tabs.open(ann), tabs.open(ben)]);
    const benHeard = record(benTab, 'message_change');
    const otherHears = nextEvent<MessageChange>(annOther, 'message_change');
    const count = nextEvent<MessageCountPayload>(annOther, 'message_count');

    const hidden = await change(annTab, 'hide', { message_id: last.id });
    expect(hidden).toEqual({
      kind: 'hide',
      seq: 3,
      message_id: last.id,
      peer_id: ben.user.id,
      preview: expect.objectContaining({ id: first.id, text: 'first' }),
      unread_count: 1,
    });
    expect(await otherHears).toEqual(hidden);
    expect(await count).toEqual({ count: 1 });
    expect((await thread(ann, ben)).map((message) => message.text)).toEqual(['first']);
    expect((await thread(ben, ann)).map((message) => message.text)).toEqual(['last, unread', 'first']);
    expect((await list(ann)).results[0]).toMatchObject({ unread_count: 1, last_message: { id: first.id } });
    expect(await change(annTab, 'hide', { message_id: last.id })).toBeNull();
    // Hidden is gone for her: nothing more can be done to it.
    expect(await refusal(annTab, 'react', { message_id: last.id, emoji: '👍', add: true })).toEqual(fieldError('message_id: Message not found.'));

    // Every message hidden: the conversation leaves her list until someone writes again.
    await change(annTab, 'hide', { message_id: first.id });
    expect((await list(ann)).results).toEqual([]);
    await store(ben, ann, 'again');
    expect((await list(ann)).results.map((row) => row.last_message.text)).toEqual(['again']);
    expect(benHeard).toEqual([]);
  });
});

describe('every change takes the next seq of each account it concerns', () => {
  it('numbers messages and changes together, without gaps, as sync returns them', async () => {
    const [ann, ben] = await pair();
    const [annTab, benTab] = await Promise.all([tabs.open(ann), tabs.open(ben)]);
    const sent = await emitWithAck<Ack<MessagePayload>>(annTab, 'send', { client_id: randomUUID(), recipient_id: ben.user.id, text: 'one' });
    if (!('data' in sent)) throw new Error(JSON.stringify(sent));
    await change(benTab, 'react', { message_id: sent.data.id, emoji: '❤️', add: true });
    await change(annTab, 'edit', { message_id: sent.data.id, text: 'one!' });
    await emitWithAck(benTab, 'read', { user_id: ann.user.id });
    await change(benTab, 'hide', { message_id: sent.data.id });
    const [annRow] = await t.db.select({ lastSeq: users.lastSeq }).from(users).where(eq(users.id, ann.user.id));
    const [benRow] = await t.db.select({ lastSeq: users.lastSeq }).from(users).where(eq(users.id, ben.user.id));
    // Ann: message, reaction, edit, seen. Ben: message, reaction, edit, read, hide.
    expect([annRow?.lastSeq, benRow?.lastSeq]).toEqual([4, 5]);
  });
});
