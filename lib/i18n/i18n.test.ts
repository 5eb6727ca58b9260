import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@/lib/contract';
import { getStoredLocale, storeLocale } from '@/lib/session/storage';
import { useSessionStore } from '@/lib/stores/session-store';
import { formatFileSize } from './format';
import { currentLanguage, i18n, initI18n, normalizeLanguage } from './i18n';
import { followUserLanguage, setLanguage } from './user-language';

const accounts = vi.hoisted(() => ({ updateSettings: vi.fn<(body: { language: string }) => Promise<User>>() }));
vi.mock('@/lib/api/accounts', () => accounts);

const user = (language: string): User => ({ id: 7, username: 'ada', email: null, avatar: null, language, is_active: true, notification_preview: 'text', notification_sound: true });

describe('i18n', () => {
  beforeEach(() => {
    localStorage.clear();
    accounts.updateSettings.mockReset();
  });

  it('translates in English from import on, before initI18n (first render, server side)', () => {
    expect(i18n.isInitialized).toBe(true);
    expect(i18n.t('header.unread', { count: 2 })).toBe('2 unread messages');
  });

  it('the latest language asked for wins, even if an earlier one loads later', async () => {
    await initI18n('en');
    const slow = initI18n('fr');
    await initI18n('en');
    await slow;
    expect(currentLanguage()).toBe('en');
  });

  it('starts in the stored locale and falls back to English', async () => {
    storeLocale('fr');
    await initI18n();
    expect(currentLanguage()).toBe('fr');
    expect(i18n.t('settings.signOut')).toBe('Se déconnecter');
    expect(document.documentElement.lang).toBe('fr');
    await initI18n(null);
    expect(currentLanguage()).toBe('en');
    await initI18n('de');
    expect(i18n.t('settings.signOut')).toBe('Sign out');
  });

  it('reads region and case variants as the supported language', () => {
    expect(normalizeLanguage('es-MX')).toBe('es');
    expect(normalizeLanguage('FR_ca')).toBe('fr');
    expect(normalizeLanguage('pt')).toBe('en');
    expect(normalizeLanguage(undefined)).toBe('en');
  });

  it.each([
    ['en', 1, '1 unread message'],
    ['en', 5, '5 unread messages'],
    ['en', 0, '0 unread messages'],
    ['en', 1200, '1,200 unread messages'],
    ['es', 1, '1 mensaje sin leer'],
    ['es', 5, '5 mensajes sin leer'],
    ['es', 1_000_000, '1.000.000 de mensajes sin leer'],
    ['fr', 0, '0 message non lu'],
    ['fr', 1, '1 message non lu'],
    ['fr', 5, '5 messages non lus'],
    ['fr', 1_000_000, '1\u202f000\u202f000 de messages non lus'],
  ])('plural in %s for %d: "%s"', async (language, count, text) => {
    await initI18n(language);
    expect(i18n.t('header.unread', { count })).toBe(text);
  });

  it('plural counts of followers in every language', async () => {
    const seen: string[] = [];
    for (const language of ['en', 'es', 'fr']) {
      await initI18n(language);
      seen.push(i18n.t('people.followerCount', { count: 1 }), i18n.t('people.followerCount', { count: 3 }));
    }
    expect(seen).toEqual(['1 follower', '3 followers', '1 seguidor', '3 seguidores', '1 abonné', '3 abonnés']);
  });

  it('interpolates the file size limit', async () => {
    await initI18n('en');
    const text = i18n.t('composer.fileTooLarge', {
      name: 'movie.mp4',
      size: formatFileSize(51 * 1024 * 1024, 'en'),
      max: formatFileSize(50 * 1024 * 1024, 'en'),
    });
    expect(text).toBe('“movie.mp4” is 51 MB. Files can be at most 50 MB.');
  });

  it('setLanguage switches at once, stores locale, saves on the server and publishes the user', async () => {
    await initI18n('en');
    accounts.updateSettings.mockImplementation(async ({ language }) => {
      expect(currentLanguage()).toBe('es');
      return user(language);
    });
    await expect(setLanguage('es')).resolves.toEqual(user('es'));
    expect(accounts.updateSettings).toHaveBeenCalledExactlyOnceWith({ language: 'es' });
    expect(getStoredLocale()).toBe('es');
    expect(i18n.t('composer.send')).toBe('Enviar');
    expect(useSessionStore.getState().user?.language).toBe('es');
  });

  it('a refused setLanguage puts the previous language back and rethrows', async () => {
    storeLocale('fr');
    await initI18n();
    accounts.updateSettings.mockRejectedValue(new Error('Try later.'));
    await expect(setLanguage('es')).rejects.toThrow('Try later.');
    expect(currentLanguage()).toBe('fr');
    expect(getStoredLocale()).toBe('fr');
  });

  it('follows the language of a published user (sign-in, another device) and stores it', async () => {
    await initI18n('en');
    const stop = followUserLanguage();
    expect(followUserLanguage()).toBe(stop);
    useSessionStore.getState().publishUser(user('fr'));
    await vi.waitFor(() => expect(currentLanguage()).toBe('fr'));
    expect(getStoredLocale()).toBe('fr');
    stop();
    useSessionStore.getState().publishUser(user('es'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(currentLanguage()).toBe('fr');
  });
});

describe('formatFileSize', () => {
  it('formats sizes in the reader’s language', () => {
    expect(formatFileSize(50 * 1024 * 1024, 'en')).toBe('50 MB');
    expect(formatFileSize(1536, 'en')).toBe('1.5 kB');
    expect(formatFileSize(512, 'en')).toBe('512 byte');
    expect(formatFileSize(50 * 1024 * 1024, 'fr')).toBe('50\u202fMo');
  });
});
