'use client';

import type { ReactNode } from 'react';
import { usePathname } from 'next/navigation';
import { I18nProvider } from '@/components/i18n/i18n-provider';
import { SessionGuard } from '@/components/session/session-guard';
import { preferredLanguage, preloadLanguage } from '@/lib/i18n';
import { areaOf } from '@/lib/routing/route-guard';

// The main area needs all the texts of the language to show (the sign-in screen only its own):
// asked for as this module runs, not once the page has hydrated.
if (typeof window !== 'undefined' && areaOf(window.location.pathname) === 'main') preloadLanguage(preferredLanguage());

export default function SessionLayout({ children }: { children: ReactNode }) {
  // The sign-in screen is server-rendered in English (docs/DECISIONS.md) and needs only its own
  // texts; the main area's gate waits for all of them (components/main/main-gate.tsx).
  const signInOnly = areaOf(usePathname()) === 'account';
  return (
    <I18nProvider signInOnly={signInOnly}>
      <SessionGuard>{children}</SessionGuard>
    </I18nProvider>
  );
}
