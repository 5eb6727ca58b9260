// What the server-rendered sign-in screen needs to be right from the first paint. The
// server renders /account's real screen, but it knows neither the stored token nor the stored
// locale: an inline script in the document's head (first-paint-script.ts) reads both before
// anything is painted and marks <html>; a style next to it hides the screen in those states and
// shows a spinner instead. The client clears a mark once it has caught up with it.
//
//   data-session="signed-in"  a token is stored: the screen must never show (the guard rule); the guard
//                             sends the user to /main. Cleared when the guard allows /account.
//   data-locale="pending"     the stored language is not English: the screen waits for its texts,
//                             as it did before, rather than flashing English. Cleared once loaded.

export const FIRST_PAINT = {
  /** On the element the marks hide: the sign-in screen. */
  screen: { 'data-first-paint': 'screen' },
  /** On the element the marks show instead: a spinner, like the one shown before JS ran. */
  cover: { 'data-first-paint': 'cover' },
} as const;

function clearMark(name: 'session' | 'locale'): void {
  if (typeof document !== 'undefined') delete document.documentElement.dataset[name];
}

/** The guard allowed /account: no token any more (or never), so nothing hides the screen. */
export function clearSignedInMark(): void {
  clearMark('session');
}

/** The stored language's texts are in (or failed, leaving English): the screen may show. */
export function clearLocalePendingMark(): void {
  clearMark('locale');
}
