'use client';

import type { ReactNode } from 'react';
import { usePathname } from 'next/navigation';
import { I18nProvider, I18nReady } from '@/components/i18n/i18n-provider';
import { SessionGuard } from '@/components/session/session-guard';
import { areaOf } from '@/lib/session/route-guard';

export default function SessionLayout({ children }: { children: ReactNode }) {
  // The sign-in screen is server-rendered in English (docs/DECISIONS.md); the main area waits for the language.
  const prerendered = areaOf(usePathname()) === 'account';
  return (
    <I18nProvider>
      <SessionGuard>
        <I18nReady prerendered={prerendered}>{children}</I18nReady>
      </SessionGuard>
    </I18nProvider>
  );
}
