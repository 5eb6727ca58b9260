// "My data": the export of everything held about the account, and deleting the account, with
// what the other side of its conversations sees afterwards (docs/DECISIONS.md).
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { AccountExport, Attachment, AuthorizeResponse, ConversationSummaryPage, ConversationThreadPage } from '../../lib/contract';
import { directConversationId } from '../../testing/database';
import { EXPORT_READ_MESSAGES, exportAccount, restAfterRead } from '../db/account-export';
import { storeMessages } from '../db/delivery/message-batch';
import { savePushSubscription } from '../db/push-subscriptions';
import { pushSubscriptions, reports, sessions, uploads, users } from '../db/schema';
import { api, authorizeBody, signIn, startTestServer, type SignedInUser } from '../test/helpers';
import { emitWithAck, nextEvent, sendAccepted } from '../test/socket-client';
import { serverWithTabs } from '../test/tabs';
import { filesIn, pngBytes, rawUpload } from '../test/uploads';

const { t, tabs } = serverWithTabs(() => startTestServer());

async function sessionOf(user: SignedInUser): Promise<number> {
  const [row] = await t.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.user.id));
  return row!.id;
}
async function upload(user: SignedInUser): Promise<Attachment> {
  const file = pngBytes(2, 2);
  const response = await rawUpload(t.url, { authorization: user.bearer, 'x-file-name': 'me.png', 'content-length': file.length }, [file]);
  return JSON.parse(response.body) as Attachment;
}

describe('GET /api/accounts/export', () => {
  it('downloads everything held about the account as one JSON file, with no session token in it', async () => {
    const [amy, bea] = await Promise.all([signIn(t.url, 'Amy'), signIn(t.url, 'Bea')]);
    const [amyTab, beaTab] = await Promise.all([tabs.open(amy), tabs.open(bea)]);
    const photo = await upload(amy);
    const { conversation_id: withBea } = await sendAccepted(amyTab, bea, 'hello Bea', { attachment_id: photo.id });
    await sendAccepted(beaTab, amy, 'hi Amy');
    await emitWithAck(amyTab, 'follow', { user_id: bea.user.id, follow: true });
    await emitWithAck(beaTab, 'follow', { user_id: amy.user.id, follow: true });
    const cal = await signIn(t.url, 'Cal');
    await api(t.url, `/users/${cal.user.id}/block`, { method: 'PUT', token: amy.bearer });
    const received = (await api<ConversationThreadPage>(t.url, `/c/${withBea}/messages`, { token: amy.bearer })).body.results[0]!;
    await api(t.url, '/reports', { method: 'POST', token: amy.bearer, json: { message_id: received.id, reason: 'other', details: 'testing' } });
    // A browser of Amy's registered for Web Push (this server sends none, so straight into the table).
    const endpoint = `https://fcm.googleapis.com/fcm/send/${randomUUID()}`;
    await savePushSubscription(t.db, { endpoint, p256dh: 'BPublicKey', auth: 'secret-auth', userId: amy.user.id, sessionId: await sessionOf(amy) });

    const response = await fetch(`${t.url}/api/accounts/export`, { headers: { authorization: amy.bearer } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="parley-data-${amy.user.id}-\\d{4}-\\d\\d-\\d\\d\\.json"$`));
    const text = await response.text();
    expect(text).not.toContain(amy.token);
    expect(text).not.toContain('secret-auth');
    const data = JSON.parse(text) as AccountExport;
    expect(data.user).toMatchObject({ id: amy.user.id, username: 'Amy', email: amy.user.email, message_policy: 'everyone', created_at: expect.any(String) });
    expect(data.sessions).toEqual([{ id: expect.any(Number), created_at: expect.any(String), last_used_at: expect.any(String), revoked_at: null }]);
    expect(data.push_subscriptions).toEqual([{ endpoint, session_id: data.sessions[0]!.id, created_at: expect.any(String), updated_at: expect.any(String) }]);
    expect(data.following.map((p) => [p.user_id, p.username])).toEqual([[bea.user.id, 'Bea']]);
    expect(data.followers.map((p) => p.user_id)).toEqual([bea.user.id]);
    expect(data.blocks.map((p) => p.user_id)).toEqual([cal.user.id]);
    expect(data.conversations).toEqual([
      { conversation_id: withBea, user_id: bea.user.id, username: 'Bea', unread_count: 1, muted: false, last_message_at: expect.any(String) },
    ]);
    expect(data.messages.map((m) => [m.conversation_id, m.sender_id, m.text, m.attachment?.id ?? null, m.seq])).toEqual([
      [withBea, amy.user.id, 'hello Bea', photo.id, 1],
      [withBea, bea.user.id, 'hi Amy', null, 2],
    ]);
    expect(data.uploads).toEqual([{ ...photo, created_at: expect.any(String) }]);
    expect(data.reports).toEqual([expect.objectContaining({ message_id: received.id, message_text: 'hi Amy', reason: 'other', details: 'testing' })]);
  });

  it('pages through a long history, conversation by conversation, without losing or repeating a message, and keeps those deleted for oneself', async () => {
    const [dee, eli, fin] = await Promise.all([signIn(t.url, 'Dee'), signIn(t.url, 'Eli'), signIn(t.url, 'Fin')]);
    // Many pages of the export's reads, stored as one batch each (sends would meet the rate limit).
    await storeMessages(t.db, Array.from({ length: 520 }, (_, i) => ({ senderId: dee.user.id, recipientId: eli.user.id, clientId: randomUUID(), text: `m${i}` })));
    await storeMessages(t.db, Array.from({ length: 3 }, (_, i) => ({ senderId: fin.user.id, recipientId: dee.user.id, clientId: randomUUID(), text: `f${i}` })));
    const [withEli, withFin] = [await directConversationId(t.db, dee.user.id, eli.user.id), await directConversationId(t.db, dee.user.id, fin.user.id)];
    const deeTab = await tabs.open(dee);
    const hidden = (await api<ConversationThreadPage>(t.url, `/c/${withFin}/messages`, { token: dee.bearer })).body.results[0]!;
    expect(await emitWithAck(deeTab, 'hide', { message_id: hidden.id })).toMatchObject({ data: { change: { kind: 'hide' } } });
    const data = (await api<AccountExport>(t.url, '/accounts/export', { token: dee.bearer })).body;
    expect(data.messages.map((m) => [m.conversation_id, m.seq])).toEqual([
      ...Array.from({ length: 520 }, (_, i) => [withEli, i + 1]),
      ...Array.from({ length: 3 }, (_, i) => [withFin, i + 1]),
    ]);
  });

  it('sends one export at a time per account: a second starts once the first has been sent, and a client gone while it waited frees its turn', async () => {
    const [fay, gil] = await Promise.all([signIn(t.url, 'Fay'), signIn(t.url, 'Gil')]);
    await storeMessages(t.db, Array.from({ length: 300 }, (_, i) => ({ senderId: fay.user.id, recipientId: gil.user.id, clientId: randomUUID(), text: `m${i}` })));
    const events: string[] = [];
    const gone = new AbortController();
    const exportAs = (name: string, signal?: AbortSignal) =>
      fetch(`${t.url}/api/accounts/export`, { headers: { authorization: fay.bearer }, signal }).then(async (response) => {
        events.push(`${name} started`);
        // The abandoned one is waiting behind this one by now (or never reached its turn).
        if (name === 'one') gone.abort();
        const data = JSON.parse(await response.text()) as AccountExport;
        events.push(`${name} sent`);
        return data.messages.length;
      });
    const first = exportAs('one');
    const abandoned = exportAs('gone', gone.signal).catch(() => 'aborted');
    const second = exportAs('two');
    expect(await Promise.all([first, second, abandoned])).toEqual([300, 300, 'aborted']);
    // Each starts once the one before it has been sent, never side by side.
    expect(events).toEqual(['one started', 'one sent', 'two started', 'two sent']);
  });

  it('rests between its reads of the messages, three times as long as each took, and not after the last', async () => {
    const [hal, ivy] = await Promise.all([signIn(t.url, 'Hal'), signIn(t.url, 'Ivy')]);
    // Two and a half reads' worth: three reads, so two rests.
    const count = EXPORT_READ_MESSAGES * 2 + EXPORT_READ_MESSAGES / 2;
    await storeMessages(t.db, Array.from({ length: count }, (_, i) => ({ senderId: hal.user.id, recipientId: ivy.user.id, clientId: randomUUID(), text: `m${i}` })));
    const rests: number[] = [];
    let text = '';
    for await (const piece of exportAccount(t.db, hal.user.id, async (ms) => void rests.push(ms))) text += piece;
    expect((JSON.parse(text) as AccountExport).messages).toHaveLength(count);
    expect(rests).toHaveLength(2);
    expect(rests.every((ms) => ms > 0)).toBe(true);
    expect(restAfterRead(10)).toBe(30);
  });
});

describe('DELETE /api/accounts/me', () => {
  it('erases the profile, sessions, push subscriptions and uploads; the other person keeps the conversation, shown as a deleted account', async () => {
    const [fin, gus] = await Promise.all([signIn(t.url, 'Fin'), signIn(t.url, 'Gus')]);
    const [finTab, gusTab] = await Promise.all([tabs.open(fin), tabs.open(gus)]);
    const photo = await upload(fin);
    await sendAccepted(finTab, gus, 'with a photo', { attachment_id: photo.id });
    await sendAccepted(finTab, gus, 'unread too');
    await sendAccepted(gusTab, fin, 'reply');
    await emitWithAck(gusTab, 'follow', { user_id: fin.user.id, follow: true });
    await savePushSubscription(t.db, {
      endpoint: `https://fcm.googleapis.com/fcm/send/${randomUUID()}`, p256dh: 'BPublicKey', auth: 'auth', userId: fin.user.id, sessionId: await sessionOf(fin),
    });
    const filesBefore = await filesIn(t.uploadsDir);
    const disconnected = nextEvent<string>(finTab, 'disconnect');

    expect((await api(t.url, '/accounts/me', { method: 'DELETE', token: fin.bearer })).status).toBe(204);
    expect(await disconnected).toBe('io server disconnect');
    expect((await api(t.url, '/accounts/info', { token: fin.bearer })).status).toBe(401);

    const [row] = await t.db.select().from(users).where(eq(users.id, fin.user.id));
    expect(row).toMatchObject({ username: null, email: null, avatar: null, isActive: false, firebaseUid: `deleted:${fin.user.id}`, deletedAt: expect.any(Date) });
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, fin.user.id))).toEqual([]);
    expect(await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, fin.user.id))).toEqual([]);
    expect(await t.db.select().from(uploads).where(eq(uploads.ownerId, fin.user.id))).toEqual([]);
    expect((await filesIn(t.uploadsDir)).length).toBe(filesBefore.length - 1);
    expect((await fetch(`${t.url}${photo.url}`)).status).toBe(404);

    // Gus keeps the conversation (it is his record too), with its badge.
    const conversation = await directConversationId(t.db, gus.user.id, fin.user.id);
    const list = (await api<ConversationSummaryPage>(t.url, '/c', { token: gus.bearer })).body.results;
    expect(list).toEqual([
      expect.objectContaining({
        conversation_id: conversation,
        user: { id: fin.user.id, username: null, avatar: null, is_following: false, follows_you: false, deleted: true },
        unread_count: 2,
      }),
    ]);
    const thread = (await api<ConversationThreadPage>(t.url, `/c/${conversation}/messages`, { token: gus.bearer })).body.results;
    expect(thread.map((m) => [m.text, m.attachment, m.attachment_removed])).toEqual([
      ['reply', null, false],
      ['unread too', null, false],
      ['with a photo', null, true],
    ]);
    expect(await emitWithAck(gusTab, 'read', { conversation_id: conversation })).toEqual({ data: { count: 0, unread_count: 0 } });
    // He can neither reply (in the conversation, or to the person) nor follow, and there is no profile to open.
    for (const to of [{ conversation_id: conversation }, { recipient_id: fin.user.id }]) {
      expect(await emitWithAck(gusTab, 'send', { client_id: randomUUID(), ...to, text: 'hello?' })).toEqual({
        error: { non_field_errors: ['recipient_id: User not found.'] },
      });
    }
    expect(await emitWithAck(gusTab, 'follow', { user_id: fin.user.id, follow: true })).toEqual({ error: { msg: 'User not found.' } });
    expect((await api(t.url, `/users/${fin.user.id}`, { token: gus.bearer })).status).toBe(404);
    expect((await api<{ results: unknown[] }>(t.url, `/users/${gus.user.id}/followers`, { token: gus.bearer })).body.results).toEqual([]);
  });

  it('keeps reports about the account, and a new sign-in with the same Firebase account starts a new, empty one', async () => {
    const [hal, ivy] = await Promise.all([signIn(t.url, 'Hal'), signIn(t.url, 'Ivy')]);
    const halTab = await tabs.open(hal);
    const message = await sendAccepted(halTab, ivy, 'nasty');
    const filed = await api<{ id: number }>(t.url, '/reports', { method: 'POST', token: ivy.bearer, json: { message_id: message.id, reason: 'harassment' } });
    expect((await api(t.url, '/accounts/me', { method: 'DELETE', token: hal.bearer })).status).toBe(204);
    expect(await t.db.select({ text: reports.messageText }).from(reports).where(eq(reports.id, filed.body.id))).toEqual([{ text: 'nasty' }]);

    const again = await api<AuthorizeResponse>(t.url, '/accounts/authorize', {
      method: 'POST',
      json: authorizeBody(hal.account, { username: 'Hal again' }),
    });
    expect(again.status).toBe(200);
    expect(again.body.user.id).not.toBe(hal.user.id);
    expect(again.body.user).toMatchObject({ username: 'Hal again', is_active: true });
    const fresh = `Bearer ${again.body.token}`;
    expect((await api<ConversationSummaryPage>(t.url, '/c', { token: fresh })).body.results).toEqual([]);
  });
});
