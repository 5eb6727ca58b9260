import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@/lib/contract';
import { getStoredLocale, storeLocale } from '@/lib/session/storage';
import { useSessionStore } from '@/lib/stores/session-store';
import { deferred, settle } from '@/lib/testing/deferred';
import { formatFileSize } from './format';
import { browserLanguage, currentLanguage, i18n, initI18n, normalizeLanguage } from './i18n';
import { followUserLanguage, setLanguage } from '../lifecycle/user-language';

const accounts = vi.hoisted(() => ({ updateSettings: vi.fn<(body: { language: string }) => Promise<User>>() }));
vi.mock('@/lib/api/accounts', () => accounts);

const user = (language: string): User => ({ id: 7, username: 'ada', email: null, avatar: null, language, is_active: true, message_policy: 'everyone', show_presence: true, read_receipts: true, notification_preview: 'text', notification_sound: true });

describe('i18n', () => {
  beforeEach(() => {
    localStorage.clear();
    accounts.updateSettings.mockReset();
  });

  it('translates in English before initI18n: the main area bundles all of English (as the test setup does)', () => {
    expect(i18n.isInitialized).toBe(true);
    expect(i18n.t('header.unread', { count: 2 })).toBe('2 unread messages');
  });

  it('bundles only the sign-in screen’s English; the rest comes when a sign-in starts or the main area needs it', async () => {
    vi.resetModules();
    const fresh = await import('./i18n');
    expect(fresh.i18n.t('account.signInTitle')).toBe('Sign in to Parley');
    expect(fresh.i18n.t('header.unread', { count: 2 })).toBe('header.unread');
    // The sign-in screen asks for its own texts only: in English, nothing to load.
    await fresh.initI18n('en', { signInOnly: true });
    expect(fresh.i18n.t('header.unread', { count: 2 })).toBe('header.unread');
    const translator = fresh.currentTranslator();
    await fresh.loadAllTexts();
    expect(fresh.i18n.t('header.unread', { count: 2 })).toBe('2 unread messages');
    // A new t, so that what is on screen renders again with the texts.
    expect(fresh.currentTranslator()).not.toBe(translator);
  });

  it('the latest language asked for wins, even if an earlier one loads later', async () => {
    await initI18n('en');
    const slow = initI18n('fr');
    await initI18n('en');
    await slow;
    expect(currentLanguage()).toBe('en');
  });

  it('an overtaken start resolves only once the language shown instead has its texts', async () => {
    vi.resetModules();
    const frenchArrives = deferred<void>();
    vi.doMock('./locales/fr', async () => {
      await frenchArrives.promise;
      return vi.importActual('./locales/fr');
    });
    try {
      const fresh = await import('./i18n');
      // The stored language starts loading; the user's saved one (another device chose it) overtakes it.
      let started = false;
      const starting = fresh.initI18n('es').then(() => {
        started = true;
      });
      const following = fresh.applyLanguage('fr');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(started).toBe(false); // Spanish is in, but French is what will show
      frenchArrives.resolve();
      await starting;
      expect(fresh.currentLanguage()).toBe('fr');
      expect(fresh.i18n.t('settings.signOut')).toBe('Se déconnecter');
      await following;
    } finally {
      vi.doUnmock('./locales/fr');
    }
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

  it('without a stored locale (a first visit), starts in the browser’s language; a stored one wins', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE', 'es-ES', 'en']);
    try {
      await initI18n();
      expect(currentLanguage()).toBe('es');
      expect(localStorage.getItem('locale')).toBeNull();
      storeLocale('fr');
      await initI18n();
      expect(currentLanguage()).toBe('fr');
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('takes the first of the browser’s languages that Parley has', () => {
    expect(browserLanguage(['fr-FR', 'fr', 'en-US'])).toBe('fr');
    expect(browserLanguage(['de-DE', 'es-419', 'fr'])).toBe('es');
    expect(browserLanguage(['en-GB', 'fr-FR'])).toBe('en');
    expect(browserLanguage(['de-DE', 'pt-BR'])).toBe('en');
    expect(browserLanguage([])).toBe('en');
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
      size: formatFileSize(51_000_000, 'en'),
      max: formatFileSize(50_000_000, 'en'),
    });
    expect(text).toBe('“movie.mp4” is 51 MB. Files can be at most 50 MB.');
  });

  it('setLanguage switches at once, stores locale, then saves on the server and publishes the user', async () => {
    await initI18n('en');
    const saved = deferred<User>();
    accounts.updateSettings.mockReturnValue(saved.promise);
    await setLanguage('es');
    // Shown and stored before the server has answered.
    expect(currentLanguage()).toBe('es');
    expect(getStoredLocale()).toBe('es');
    expect(i18n.t('composer.send')).toBe('Enviar');
    expect(accounts.updateSettings).toHaveBeenCalledExactlyOnceWith({ language: 'es' });
    saved.resolve(user('es'));
    await vi.waitFor(() => expect(useSessionStore.getState().user?.language).toBe('es'));
  });

  it('a second choice while the first is being saved is saved after it, so the server ends on the latest', async () => {
    await initI18n('en');
    const first = deferred<User>();
    accounts.updateSettings.mockReturnValueOnce(first.promise).mockResolvedValueOnce(user('fr'));
    await setLanguage('es');
    await setLanguage('fr');
    expect(currentLanguage()).toBe('fr');
    // One request at a time: the second waits for the first's answer.
    expect(accounts.updateSettings).toHaveBeenCalledExactlyOnceWith({ language: 'es' });
    first.resolve(user('es'));
    await vi.waitFor(() => expect(accounts.updateSettings).toHaveBeenCalledTimes(2));
    expect(accounts.updateSettings).toHaveBeenLastCalledWith({ language: 'fr' });
    await vi.waitFor(() => expect(useSessionStore.getState().user?.language).toBe('fr'));
    expect(currentLanguage()).toBe('fr');
  });

  it('offline: the choice holds (shown, in locale, not undone by the server’s older user) and is saved once online', async () => {
    await initI18n('en');
    const stop = followUserLanguage();
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    accounts.updateSettings.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce(user('fr'));
    await setLanguage('fr');
    await settle();
    expect(currentLanguage()).toBe('fr');
    expect(getStoredLocale()).toBe('fr');
    // A reconnect publishes the user as the server still has them: the unsaved choice wins.
    useSessionStore.getState().publishUser(user('en'));
    await settle();
    expect(currentLanguage()).toBe('fr');
    expect(accounts.updateSettings).toHaveBeenCalledTimes(1);
    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(accounts.updateSettings).toHaveBeenCalledTimes(2));
    await vi.waitFor(() => expect(useSessionStore.getState().user?.language).toBe('fr'));
    expect(currentLanguage()).toBe('fr');
    stop();
  });

  it('a save that fails after the network came back (its `online` already fired) is tried again soon', async () => {
    await initI18n('en');
    vi.useFakeTimers();
    try {
      accounts.updateSettings.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce(user('es'));
      await setLanguage('es');
      await vi.advanceTimersByTimeAsync(1_900);
      expect(accounts.updateSettings).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(200);
      expect(accounts.updateSettings).toHaveBeenCalledTimes(2);
      await vi.waitFor(() => expect(useSessionStore.getState().user?.language).toBe('es'));
    } finally {
      vi.useRealTimers();
    }
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
    expect(formatFileSize(50_000_000, 'en')).toBe('50 MB');
    expect(formatFileSize(30_000_000, 'en')).toBe('30 MB');
    expect(formatFileSize(52_500_000, 'en')).toBe('52.5 MB');
    expect(formatFileSize(1500, 'en')).toBe('1.5 kB');
    expect(formatFileSize(32, 'en')).toBe('32 bytes');
    expect(formatFileSize(1, 'en')).toBe('1 byte');
    expect(formatFileSize(32, 'fr')).toBe('32\u00a0octets');
    expect(formatFileSize(50_000_000, 'fr')).toBe('50\u202fMo');
    expect(formatFileSize(2_500_000_000, 'es')).toBe('2,5 GB');
  });

  it('rounds up on request, so a file just over the limit never reads as the limit', () => {
    expect(formatFileSize(50_000_001, 'en')).toBe('50 MB');
    expect(formatFileSize(50_000_001, 'en', { roundUp: true })).toBe('50.1 MB');
    expect(formatFileSize(50_000_000, 'en', { roundUp: true })).toBe('50 MB');
  });
});
