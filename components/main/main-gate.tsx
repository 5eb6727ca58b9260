'use client';

import { useEffect, useState, type ReactNode } from 'react';
import { loadUser } from '@/lib/session/guard';
import { preloadConversations } from '@/lib/realtime/wire-stores';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/lib/i18n';

/**
 * The main area's half of the guard (SPEC §2): with a stored token (the session layout checked),
 * the current user is loaded and the area renders only if it is active. The conversation list is
 * requested at the same time rather than after it, the first thing the area shows.
 */
export function MainGate({ children }: { children: ReactNode }) {
  const t = useT();
  const [allowed, setAllowed] = useState(false);

  useEffect(() => {
    let current = true;
    preloadConversations();
    loadUser()
      .then((outcome) => {
        if (current && outcome === 'allow') setAllowed(true);
      })
      // loadUser turns every expected failure into 'blocked'; anything else is a bug to report.
      .catch((error: unknown) => console.error(error));
    return () => {
      current = false;
    };
  }, []);

  if (!allowed) return <Spinner label={t('account.loading')} fullScreen />;
  return children;
}
