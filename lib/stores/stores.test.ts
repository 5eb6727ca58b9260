import { beforeEach, describe, expect, it } from 'vitest';
import type { User } from '@/lib/contract';
import {
  publishUser,
  resetConnectionStore,
  resetCounterStore,
  resetSessionStore,
  useConnectionStore,
  useCounterStore,
  useSessionStore,
} from './index';

const user: User = { id: 7, username: 'ada', email: null, avatar: null, language: 'en', is_active: true, message_policy: 'everyone' };

describe('stores', () => {
  beforeEach(() => {
    resetSessionStore();
    resetCounterStore();
    resetConnectionStore();
  });

  it('session values start empty (SPEC §3)', () => {
    expect(useSessionStore.getState()).toMatchObject({ user: null, search: '', receiver: null });
  });

  it('session actions set their value and reset restores the initial state', () => {
    publishUser(user);
    useSessionStore.getState().setSearch('bob');
    useSessionStore.getState().setReceiver(3);
    expect(useSessionStore.getState()).toMatchObject({ user, search: 'bob', receiver: 3 });
    resetSessionStore();
    expect(useSessionStore.getState()).toMatchObject({ user: null, search: '', receiver: null });
  });

  it('counters start at 0 and count', () => {
    const counters = useCounterStore.getState();
    expect(counters.unread).toBe(0);
    expect(counters.socketUserId).toBe(0);
    counters.setUnread(5);
    counters.incrementUnread();
    counters.setSocketUserId(9);
    expect(useCounterStore.getState()).toMatchObject({ unread: 6, socketUserId: 9 });
  });

  it('connection status clears the attempt count once connected', () => {
    const connection = useConnectionStore.getState();
    expect(connection.status).toBe('disconnected');
    connection.setReconnectAttempt(3);
    expect(useConnectionStore.getState()).toMatchObject({ status: 'connecting', reconnectAttempt: 3 });
    connection.setStatus('connected');
    expect(useConnectionStore.getState()).toMatchObject({ status: 'connected', reconnectAttempt: 0 });
  });
});
