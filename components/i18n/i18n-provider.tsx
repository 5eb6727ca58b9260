'use client';

import { createContext, useContext, useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { initI18n } from '@/lib/i18n';
import { clearLocalePendingMark } from '@/lib/session/first-paint';

const I18nReadyContext = createContext(false);

/**
 * Loads the user's language (from `locale`) as soon as the session area mounts, alongside the
 * token guard rather than after it; the main area's gate holds the screen back until it is in
 * (useLanguageReady), so nobody sees a flash of English. The sign-in screen (`signInOnly`) needs only its own texts, which in
 * English come with the page; the main area needs them all.
 */
export function I18nProvider({ signInOnly, children }: { signInOnly: boolean; children: ReactNode }) {
  const [loaded, setLoaded] = useState<'nothing' | 'sign-in' | 'all'>('nothing');

  useEffect(() => {
    let current = true;
    initI18n(undefined, { signInOnly })
      .catch((error: unknown) => console.error(error))
      // A language that failed to load leaves English in place, which is still usable.
      .finally(() => {
        if (current) setLoaded((before) => (before === 'all' || !signInOnly ? 'all' : 'sign-in'));
      });
    return () => {
      current = false;
    };
  }, [signInOnly]);
  const ready = loaded === 'all' || (signInOnly && loaded === 'sign-in');

  // In the commit that shows the loaded language, before it is painted.
  useLayoutEffect(() => {
    if (ready) clearLocalePendingMark();
  }, [ready]);

  return <I18nReadyContext.Provider value={ready}>{children}</I18nReadyContext.Provider>;
}

/**
 * Whether every text of the language is in (the sign-in screen's own, for the sign-in screen).
 * The main area's gate waits for it together with the user, which lets the gate's module run as
 * the page hydrates and start the area's loading then, not once the language is in.
 */
export function useLanguageReady(): boolean {
  return useContext(I18nReadyContext);
}
