import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthorizeResponse } from '@/lib/contract';

const identity = {
  uid: 'uid-1',
  displayName: 'Ada Lovelace',
  email: 'ada@example.com',
  photoURL: 'https://example.com/ada.png',
  idToken: 'firebase-id-token',
};
const response: AuthorizeResponse = {
  token: 'session-token',
  user: { id: 7, language: 'en', username: 'Ada Lovelace', email: 'ada@example.com', avatar: null, is_active: true, message_policy: 'everyone', show_presence: true, read_receipts: true, notification_preview: 'text', notification_sound: true },
};

const firebase = vi.hoisted(() => ({ signInWithProvider: vi.fn(), signInWithTestAccount: vi.fn() }));
const api = vi.hoisted(() => ({ authorize: vi.fn() }));
const session = vi.hoisted(() => ({ completeSignIn: vi.fn() }));
vi.mock('./firebase-client', () => firebase);
vi.mock('@/lib/api/accounts', () => api);
vi.mock('@/lib/session/session', () => session);

const { signIn, signInErrorMessage } = await import('./sign-in');

beforeEach(() => {
  vi.clearAllMocks();
  firebase.signInWithProvider.mockResolvedValue(identity);
  firebase.signInWithTestAccount.mockResolvedValue(identity);
  api.authorize.mockResolvedValue(response);
});

describe('signIn', () => {
  it('sends the spec fields plus the ID token, then completes the sign-in', async () => {
    await signIn({ kind: 'provider', socialType: 'github' });

    expect(firebase.signInWithProvider).toHaveBeenCalledWith('github');
    expect(api.authorize).toHaveBeenCalledWith({
      username: 'Ada Lovelace',
      email: 'ada@example.com',
      firebase_id: 'uid-1',
      social_type: 'github',
      avatar: 'https://example.com/ada.png',
      id_token: 'firebase-id-token',
    });
    expect(session.completeSignIn).toHaveBeenCalledWith(response);
  });

  it('signs test accounts in as Google users', async () => {
    await signIn({ kind: 'test-account', displayName: 'Ada', email: 'ada@example.com' });

    expect(firebase.signInWithTestAccount).toHaveBeenCalledWith('Ada', 'ada@example.com');
    expect(api.authorize).toHaveBeenCalledWith(expect.objectContaining({ social_type: 'google' }));
  });

  it('does not complete the sign-in when the server refuses it', async () => {
    api.authorize.mockRejectedValue(new Error('This account has been deactivated.'));

    await expect(signIn({ kind: 'provider', socialType: 'google' })).rejects.toThrow('deactivated');
    expect(session.completeSignIn).not.toHaveBeenCalled();
  });
});

describe('signInErrorMessage', () => {
  it('explains a closed popup in plain words', () => {
    expect(signInErrorMessage({ code: 'auth/popup-closed-by-user', message: 'Firebase: Error' })).toBe(
      'The sign-in window was closed before signing in.',
    );
  });

  it('passes on the already-mapped message of an HTTP error', () => {
    expect(signInErrorMessage(new Error('This account has been deactivated.'))).toBe(
      'This account has been deactivated.',
    );
  });

  it('stringifies anything else', () => {
    expect(signInErrorMessage('offline')).toBe('offline');
  });
});
