import { IDBFactory } from 'fake-indexeddb';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '@/lib/i18n';
import { createOfflineSnapshotStorage, type OfflineSnapshotStorage } from '@/lib/offline/offline-snapshot';
import { createMemoryOutboxStorage, type OutboxEntry, type OutboxStorage } from '@/lib/outbox/outbox-storage';
import { getStoredToken, storeToken } from '@/lib/session/storage';
import { ME } from '@/lib/testing/fixtures';
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
    await snapshots.save(getStoredToken() ?? '', { userId: ME, names: { 2: 'Bob' } });
    render(<OfflineStart snapshots={snapshots} outbox={outbox} />);
    expect(screen.getByRole('status').textContent).toMatch(/^You are offline\./);
    const list = await screen.findByRole('region', { name: '2 messages waiting to be sent' });
    const items = Array.from(list.querySelectorAll('li'), (item) => item.textContent);
    expect(items).toEqual(['To Bobsee you at 8', 'To Unknown useron my way']);
  });

  it('lists nothing when the snapshot belongs to another token', async () => {
    await snapshots.save('previous-session', { userId: ME, names: { 2: 'Bob' } });
    render(<OfflineStart snapshots={snapshots} outbox={outbox} />);
    expect(screen.getByRole('status').textContent).toMatch(/^You are offline\./);
    // Give the reads their turn, then check that nothing appeared.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.queryByText('see you at 8')).toBeNull();
  });
});
