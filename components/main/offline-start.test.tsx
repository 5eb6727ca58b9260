import { IDBFactory } from 'fake-indexeddb';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '@/lib/i18n';
import { createOfflineSnapshotStorage, type OfflineSnapshotStorage } from '@/lib/offline/offline-snapshot';
import { createMemoryOutboxStorage, type OutboxEntry, type OutboxStorage } from '@/lib/outbox/outbox-storage';
import { getStoredToken, storeToken } from '@/lib/session/storage';
import { conversation, ME, message, user } from '@/lib/testing/fixtures';
import { OfflineStart } from './offline-start';

const entry = (n: number, recipient: number, text: string): OutboxEntry => ({
  client_id: `00000000-0000-4000-8000-00000000000${n}`,
  sender_id: ME,
  recipient_id: recipient,
  text,
  attachment: null,
  created_at: new Date(Date.UTC(2026, 0, 1, 12, n)).toISOString(),
  position: n,
});

const SAVED_AT = '2026-11-01T10:00:00.000Z';
const bobRow = { ...conversation(2, message(2, { sender_id: ME, recipient_id: 2, text: 'yes!' })), user: user(2, { username: 'Bob' }) };
const cyRow = { ...conversation(3, message(3, { sender_id: 3, recipient_id: ME, text: 'on my way home' })), user: user(3, { username: 'Cy' }) };

describe('OfflineStart (the main area opened with no network)', () => {
  let snapshots: OfflineSnapshotStorage;
  let outbox: OutboxStorage;

  beforeEach(async () => {
    localStorage.clear();
    storeToken('abc');
    snapshots = createOfflineSnapshotStorage(new IDBFactory());
    outbox = createMemoryOutboxStorage();
    await outbox.put(entry(1, 2, 'see you at 8'));
    await outbox.put(entry(2, 3, 'on my way'));
    // Someone else's unsent message on this browser is never listed.
    await outbox.put({ ...entry(3, 2, 'not mine'), sender_id: 99 });
    await initI18n('en');
  });

  afterEach(cleanup);

  it('lists what waits to be sent, and to whom, for the session of the stored token', async () => {
    await snapshots.save(getStoredToken() ?? '', { userId: ME, names: { 2: 'Bob' }, conversations: [], recent: [], savedAt: '' });
    render(<OfflineStart snapshots={snapshots} outbox={outbox} />);
    expect(screen.getByRole('status').textContent).toMatch(/^You are offline\./);
    const list = await screen.findByRole('region', { name: '2 messages waiting to be sent' });
    const items = Array.from(list.querySelectorAll('li'), (item) => item.textContent);
    expect(items).toEqual(['To Bobsee you at 8', 'To Unknown useron my way']);
  });

  it('lists nothing when the snapshot belongs to another token', async () => {
    await snapshots.save('previous-session', { userId: ME, names: { 2: 'Bob' }, conversations: [bobRow], recent: [2], savedAt: SAVED_AT });
    await snapshots.saveThread('previous-session', { peerId: 2, messages: [message(1, { sender_id: 2, recipient_id: ME, text: 'old news' })], savedAt: SAVED_AT });
    render(<OfflineStart snapshots={snapshots} outbox={outbox} />);
    expect(screen.getByRole('status').textContent).toMatch(/^You are offline\./);
    // Give the reads their turn, then check that nothing appeared.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.queryByText('see you at 8')).toBeNull();
    expect(screen.queryByText('old news')).toBeNull();
  });

  it('shows the conversation list and the conversations opened last as saved, marked as possibly out of date', async () => {
    const token = getStoredToken() ?? '';
    await snapshots.save(token, { userId: ME, names: { 2: 'Bob' }, conversations: [bobRow, cyRow], recent: [2], savedAt: SAVED_AT });
    await snapshots.saveThread(token, {
      peerId: 2,
      messages: [message(1, { sender_id: 2, recipient_id: ME, text: 'dinner at 8?' }), message(2, { sender_id: ME, recipient_id: 2, text: 'yes!' })],
      savedAt: SAVED_AT,
    });
    render(<OfflineStart snapshots={snapshots} outbox={outbox} />);
    expect(await screen.findByText(/^Below is what this device saved on .*It may be out of date until the connection is back\.$/)).toBeTruthy();
    const list = screen.getByRole('region', { name: 'Your conversations' });
    expect(within(list).getAllByRole('button').map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^Bob.*You: yes!/),
      expect.stringMatching(/^Cyon my way home/),
    ]);

    await userEvent.click(within(list).getByRole('button', { name: /^Bob/ }));
    const thread = screen.getByRole('region', { name: 'Conversation with Bob' });
    expect(Array.from(thread.querySelectorAll('li'), (item) => item.textContent?.replace(/\d.*$/, ''))).toEqual(['Bobdinner at ', 'Youyes!', 'Yousee you at ']);
    expect(within(thread).getByText('Waiting for connection…')).toBeTruthy();

    // One opened long ago: listed, its messages not kept.
    await userEvent.click(within(list).getByRole('button', { name: /^Cy/ }));
    expect(screen.getByText('The messages of this conversation were not saved on this device.')).toBeTruthy();
  });
});
