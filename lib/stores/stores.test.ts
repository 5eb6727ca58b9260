import { describe, expect, it } from 'vitest';
import type { User } from '@/lib/contract';
import { useConnectionStore } from './connection-store';
import { useCounterStore } from './counter-store';
import { publishUser, useSessionStore } from './session-store';

const user: User = { id: 7, username: 'ada', email: null, avatar: null, language: 'en', is_active: true, message_policy: 'everyone', show_presence: true, read_receipts: true, notification_preview: 'text', notification_sound: true };

describe('stores', () => {
  it('session values start empty', () => {
    expect(useSessionStore.getState()).toMatchObject({ user: null, search: '', receiver: null });
  });

  it('session actions set their value', () => {
    publishUser(user);
    useSessionStore.getState().setSearch('bob');
    useSessionStore.getState().setReceiver(3);
    expect(useSessionStore.getState()).toMatchObject({ user, search: 'bob', receiver: 3 });
  });

  it('each test starts from the initial values (the previous one changed them)', () => {
    expect(useSessionStore.getState()).toMatchObject({ user: null, search: '', receiver: null });
  });

  it('the unread count starts at 0 and counts', () => {
    const counters = useCounterStore.getState();
    expect(counters.unread).toBe(0);
    counters.setUnread(5);
    counters.incrementUnread();
    expect(useCounterStore.getState().unread).toBe(6);
  });

  it('connection status clears the attempt count once connected', () => {
    const connection = useConnectionStore.getState();
    expect(connection.status).toBe('disconnected');
    connection.setStatus('connecting', 3);
    expect(useConnectionStore.getState()).toMatchObject({ status: 'connecting', reconnectAttempt: 3 });
    connection.setStatus('connected');
    expect(useConnectionStore.getState()).toMatchObject({ status: 'connected', reconnectAttempt: 0 });
  });
});
