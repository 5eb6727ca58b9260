/**
 * This tab's sessionStorage: written before setItem returns, kept across reloads of the tab, never
 * shared with other tabs. Null where there is none (the server's render) or it is refused (a
 * browser's privacy setting): callers go on without it.
 */
export function tabStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}
