import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthorizeResponse } from '@/lib/contract';
import { initI18n } from '@/lib/i18n';
import { enSignIn } from '@/lib/i18n/locales/en-sign-in';
import { es } from '@/lib/i18n/locales/es';
import { fr } from '@/lib/i18n/locales/fr';
import { SIGN_IN_FAILURES, signInFailure, type SignInFailure } from '@/lib/firebase/sign-in-errors';

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
vi.mock('@/lib/firebase/firebase-client', () => firebase);
vi.mock('@/lib/api/accounts', () => api);
vi.mock('./session', () => session);

const { signIn } = await import('./sign-in');

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
      language: 'en',
    });
    expect(session.completeSignIn).toHaveBeenCalledWith(response);
  });

  it('asks for the language the screen is shown in, for a new account', async () => {
    await initI18n('fr');
    try {
      await signIn({ kind: 'provider', socialType: 'google' });
    } finally {
      await initI18n('en');
    }
    expect(api.authorize).toHaveBeenCalledWith(expect.objectContaining({ language: 'fr' }));
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

describe('signInFailure', () => {
  it('names every Firebase error a popup sign-in can meet, and anything else as generic, never by its code', () => {
    const cases: [string, SignInFailure][] = [
      ['auth/popup-closed-by-user', 'popupClosed'],
      ['auth/popup-blocked', 'popupBlocked'],
      ['auth/cancelled-popup-request', 'popupInterrupted'],
      ['auth/network-request-failed', 'network'],
      ['auth/account-exists-with-different-credential', 'accountExists'],
      ['auth/too-many-requests', 'tooManyRequests'],
      ['auth/internal-error', 'serviceTrouble'],
      ['auth/user-disabled', 'userDisabled'],
      ['auth/operation-not-allowed', 'providerDisabled'],
      ['auth/unauthorized-domain', 'unauthorizedDomain'],
      ['auth/web-storage-unsupported', 'storageBlocked'],
      ['auth/something-new', 'generic'],
    ];
    for (const [code, failure] of cases) {
      expect(signInFailure({ code, message: `Firebase: Error (${code}).`, name: 'FirebaseError' }), code).toBe(failure);
    }
  });

  it('names the server’s refusals by their status, and no answer at all as the network', () => {
    const http = (status: number) => Object.assign(new Error('Request failed'), { name: 'HTTPError', response: { status } });
    expect(signInFailure(http(403))).toBe('deactivated');
    expect(signInFailure(http(429))).toBe('tooManyRequests');
    expect(signInFailure(http(503))).toBe('serviceTrouble');
    expect(signInFailure(http(400))).toBe('generic');
    expect(signInFailure(Object.assign(new Error('offline'), { name: 'NetworkError' }))).toBe('network');
    expect(signInFailure(new TypeError('Failed to fetch dynamically imported module'))).toBe('network');
    expect(signInFailure('offline')).toBe('generic');
    expect(signInFailure(null)).toBe('generic');
  });

  it('has a sentence for every failure in the sign-in screen’s own English, Spanish and French', () => {
    for (const texts of [enSignIn.signInErrors, es.signInErrors, fr.signInErrors]) {
      expect(Object.keys(texts).sort()).toEqual([...SIGN_IN_FAILURES].sort());
    }
  });
});
