// The document's first-paint script must decide exactly as the client does later: a mark that
// the client never clears would hide the sign-in screen for good, a missing one would flash it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { preferredLanguage } from '@/lib/i18n';
import { FIRST_PAINT_SCRIPT, FIRST_PAINT_STYLE } from './first-paint-script';
import { FIRST_PAINT, clearLocalePendingMark, clearSignedInMark } from './first-paint';
import { getStoredToken } from './storage';

const html = document.documentElement;

function runScript() {
  // The very string the document inlines.
  new Function(FIRST_PAINT_SCRIPT)();
}

function setItem(key: string, value: string | null) {
  if (value === null) localStorage.removeItem(key);
  else localStorage.setItem(key, value);
}

// As the server renders it.
beforeEach(() => {
  html.lang = 'en';
});

afterEach(() => {
  localStorage.clear();
  delete html.dataset.session;
  delete html.dataset.locale;
});

/** The browser's languages, as navigator.languages gives them (most wanted first). */
function setBrowserLanguages(languages: readonly string[]) {
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  vi.spyOn(navigator, 'language', 'get').mockReturnValue(languages[0] ?? '');
}

describe('first-paint script', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  for (const token of [null, '', 'Bearer abc']) {
    for (const locale of [null, '', 'en', 'en-GB', 'es', ' ES ', 'es_MX', 'fr-CA', 'de', 'espanol']) {
      for (const browser of [['en-US', 'en'], ['fr-FR', 'fr'], ['de-DE', 'es-ES', 'en'], ['de-DE'], []]) {
        it(`token ${JSON.stringify(token)}, locale ${JSON.stringify(locale)}, browser ${JSON.stringify(browser)}: marks as the client decides`, () => {
          setItem('token', token);
          setItem('locale', locale);
          setBrowserLanguages(browser);
          runScript();

          expect(html.dataset.session).toBe(getStoredToken() !== null ? 'signed-in' : undefined);
          const language = preferredLanguage();
          expect(html.dataset.locale).toBe(language !== 'en' ? 'pending' : undefined);
          expect(html.lang).toBe(language);
        });
      }
    }
  }

  it('a first visit from a French browser waits for French; a stored locale wins over the browser', () => {
    setBrowserLanguages(['fr-FR', 'fr', 'en-US']);
    runScript();
    expect(html.dataset.locale).toBe('pending');
    expect(html.lang).toBe('fr');

    delete html.dataset.locale;
    html.lang = 'en';
    setItem('locale', 'en');
    runScript();
    expect(html.dataset.locale).toBeUndefined();
    expect(html.lang).toBe('en');
  });

  it('marks no session when localStorage throws (read as "no token", like storage.ts); the browser’s language still counts', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    setBrowserLanguages(['es-ES']);
    expect(runScript).not.toThrow();
    expect(html.dataset.session).toBeUndefined();
    expect(preferredLanguage()).toBe('es');
    expect(html.dataset.locale).toBe('pending');
  });

  it('the clearing functions remove the marks the script sets', () => {
    setItem('token', 'Bearer abc');
    setItem('locale', 'fr');
    runScript();
    clearSignedInMark();
    expect(html.dataset.session).toBeUndefined();
    expect(html.dataset.locale).toBe('pending');
    clearLocalePendingMark();
    expect(html.dataset.locale).toBeUndefined();
  });
});

describe('first-paint style', () => {
  function visible(marks: Record<string, string>) {
    Object.assign(html.dataset, marks);
    const style = document.createElement('style');
    style.textContent = FIRST_PAINT_STYLE;
    document.head.append(style);
    const screen = Object.assign(document.createElement('main'), { textContent: 'screen' });
    const cover = document.createElement('div');
    for (const [element, attributes] of [
      [screen, FIRST_PAINT.screen],
      [cover, FIRST_PAINT.cover],
    ] as const) {
      for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
      document.body.append(element);
    }
    const shown = (element: Element) => getComputedStyle(element).display !== 'none';
    const result = { screen: shown(screen), cover: shown(cover) };
    style.remove();
    screen.remove();
    cover.remove();
    return result;
  }

  it('shows the screen without marks, the cover with either mark', () => {
    expect(visible({})).toEqual({ screen: true, cover: false });
    expect(visible({ session: 'signed-in' })).toEqual({ screen: false, cover: true });
    delete html.dataset.session;
    expect(visible({ locale: 'pending' })).toEqual({ screen: false, cover: true });
  });
});
