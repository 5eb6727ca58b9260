'use client';

import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useParams } from 'next/navigation';
import { loadUser } from '@/lib/lifecycle/guard';
import { type GuardResult } from '@/lib/routing/route-guard';
import { getStoredToken } from '@/lib/session/storage';
import { navigate } from '@/lib/navigation';
import { preloadConversations } from '@/lib/realtime/list-preload';
import { notificationStateRead } from '@/lib/stores/notification-store';
import { Spinner } from '@/components/ui/spinner';
import { OfflineStart } from './offline-start';
import { useT } from '@/lib/i18n';
import { useLanguageReady } from '@/components/i18n/i18n-provider';

/**
 * How long the area may wait for this browser's notification state (an IndexedDB read begun with
 * the session, usually done before the list arrives) so that its first frame already has the
 * notification prompt or not: a prompt that came later would push the list down under the reader.
 */
const PROMPT_DECISION_WAIT_MS = 300;

/** Loads the user and, at the same time, the conversation list (the first thing the area shows). */
function startLoading(navigate?: (path: string) => void): Promise<GuardResult> {
  preloadConversations();
  return loadUser(navigate ? { navigate } : {}).then(async (outcome) => {
    if (outcome === 'allow') await notificationStateRead(PROMPT_DECISION_WAIT_MS);
    return outcome;
  });
}

// A page load of /main with a token starts both requests as this module runs, before React has
// hydrated the page and passed the guards, which takes a few hundred milliseconds on a slow
// device. The gate takes this start over when it mounts; any later visit starts its own. Until
// then the router is not registered, so a redirect it asks for waits for the gate (or is made by
// the session layout's guard anyway: a signed-out page has no token left).
let early: { loading: Promise<GuardResult>; redirect: string | null } | null = null;
if (typeof window !== 'undefined' && getStoredToken() !== null) {
  const started: { loading: Promise<GuardResult>; redirect: string | null } = { loading: Promise.resolve('blocked'), redirect: null };
  started.loading = startLoading((path) => {
    started.redirect = path;
  });
  early = started;
}

/**
 * The main area's half of the guard (docs/CLIENT-RULES.md): with a stored token (the session layout checked),
 * the current user is loaded and the area renders only if it is active. The conversation list is
 * requested together with it rather than after it, and the language's texts load meanwhile: the
 * area shows once all three are in, behind one spinner.
 */
export function MainGate({ children }: { children: ReactNode }) {
  const t = useT();
  const [allowed, setAllowed] = useState(false);
  const languageReady = useLanguageReady();

  useEffect(() => {
    let current = true;
    const taken = early;
    early = null;
    const loading = taken ? taken.loading : startLoading();
    loading
      .then((outcome) => {
        if (taken?.redirect) navigate(taken.redirect);
        if (current && outcome === 'allow') setAllowed(true);
      })
      // loadUser turns every expected failure into 'blocked'; anything else is a bug to report.
      .catch((error: unknown) => console.error(error));
    return () => {
      current = false;
    };
  }, []);

  // Offline, the service worker answers every address under /main with /main's cached page, so the
  // page shows /main whatever the address bar says (a conversation's own address, say). Once the
  // area opens (once, before anyone can navigate), a page that does not match its address loads
  // again from the server.
  const shownPeer = useParams<{ peerId?: string }>()?.peerId ?? null;
  const addressChecked = useRef(false);
  useEffect(() => {
    if (!allowed || addressChecked.current) return;
    addressChecked.current = true;
    const addressPeer = /^\/main\/([^/]+)\/?$/.exec(window.location.pathname)?.[1] ?? null;
    if (addressPeer !== shownPeer) window.location.replace(window.location.href);
  }, [allowed, shownPeer]);

  const offline = useSyncExternalStore(subscribeOnline, () => !navigator.onLine, () => false);
  if (languageReady && !allowed && offline) return <OfflineStart />;
  if (!allowed || !languageReady) return <Spinner label={t('account.loading')} fullScreen />;
  return children;
}

function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}
