'use client';

import { createContext, useContext, useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { initI18n, useT } from '@/lib/i18n';
import { clearLocalePendingMark } from '@/lib/session/first-paint';
import { Spinner } from '@/components/ui/spinner';

const I18nReadyContext = createContext(false);

/**
 * Loads the user's language (from `locale`) as soon as the session area mounts, alongside the
 * token guard rather than after it; <I18nReady> holds the screen back until it is in, so nobody
 * sees a flash of English. The sign-in screen (`signInOnly`) needs only its own texts, which in
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
 * Renders its children once the language is loaded; the same spinner as the guard until then.
 * `prerendered` (the server-rendered sign-in screen) renders them at once, in English, as the server
 * did: the document's first-paint mark keeps them hidden until another stored language is in
 * (lib/session/first-paint.ts).
 */
export function I18nReady({ children, prerendered = false }: { children: ReactNode; prerendered?: boolean }) {
  const ready = useContext(I18nReadyContext);
  const t = useT();
  return ready || prerendered ? children : <Spinner label={t('account.loading')} fullScreen />;
}
