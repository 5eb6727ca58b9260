import { beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { AuthorizeResponse, User } from '@/lib/contract';
import { setNavigator } from '@/lib/navigation';
import { useSessionStore } from '@/lib/stores/session-store';
import { completeSignIn, signOut, userSignOut } from './session';
import { onSignOut } from '@/lib/session/sign-out';
import { getStoredLocale, getStoredToken, storeLocale, storeToken } from '@/lib/session/storage';
import { socketService } from '@/lib/socket/socket-service';

const socket = vi.hoisted(() => ({ startMessagingSessionSoon: vi.fn() }));
const accounts = vi.hoisted(() => ({ logout: vi.fn<() => Promise<void>>() }));
vi.mock('@/lib/realtime/session-start', () => ({ startMessagingSessionSoon: socket.startMessagingSessionSoon }));
vi.mock('@/lib/api/accounts', () => accounts);

const user: User = { id: 7, username: 'ada', email: null, avatar: null, language: 'fr', is_active: true, message_policy: 'everyone', show_presence: true, read_receipts: true, notification_preview: 'text', notification_sound: true };

describe('session actions', () => {
  let navigate: ReturnType<typeof vi.fn<(path: string) => void>>;
  let disconnectSocket: MockInstance<() => void>;

  beforeEach(() => {
    localStorage.clear();
    socket.startMessagingSessionSoon.mockReset();
    // The real socket service: it goes at sign-out because it listens for it (onSignOut).
    disconnectSocket = vi.spyOn(socketService, 'disconnectSocket');
    accounts.logout.mockReset();
    navigate = vi.fn<(path: string) => void>();
    return setNavigator(navigate);
  });

  it('completeSignIn stores "Bearer <token>" and the locale, inits the socket (its session first), publishes the user', () => {
    const response: AuthorizeResponse = { token: 'abc', user };
    completeSignIn(response);
    expect(localStorage.getItem('token')).toBe('Bearer abc');
    expect(getStoredLocale()).toBe('fr');
    expect(socket.startMessagingSessionSoon).toHaveBeenCalledExactlyOnceWith(7);
    expect(useSessionStore.getState().user).toEqual(user);
  });

  it('signOut removes only the token and keeps the locale and the published user', () => {
    storeToken('abc');
    storeLocale('fr');
    useSessionStore.getState().publishUser(user);
    signOut();
    expect(getStoredToken()).toBeNull();
    expect(getStoredLocale()).toBe('fr');
    expect(useSessionStore.getState().user).toEqual(user);
    expect(disconnectSocket).toHaveBeenCalledOnce();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('signOut tells its listeners, until they stop listening', () => {
    const listener = vi.fn(() => expect(getStoredToken()).toBeNull());
    const stop = onSignOut(listener);
    signOut();
    stop();
    signOut();
    expect(listener).toHaveBeenCalledOnce();
  });

  it('userSignOut revokes the server session while the token still exists, then signs out', async () => {
    storeToken('abc');
    accounts.logout.mockImplementation(async () => {
      expect(getStoredToken()).toBe('Bearer abc');
    });
    await userSignOut();
    expect(accounts.logout).toHaveBeenCalledOnce();
    expect(getStoredToken()).toBeNull();
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/account');
  });

  it('userSignOut signs out even when the logout call fails', async () => {
    storeToken('abc');
    accounts.logout.mockRejectedValue(new Error('offline'));
    await expect(userSignOut()).resolves.toBeUndefined();
    expect(getStoredToken()).toBeNull();
    expect(disconnectSocket).toHaveBeenCalledOnce();
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/account');
  });
});
