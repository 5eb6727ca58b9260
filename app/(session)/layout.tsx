'use client';

import type { ReactNode } from 'react';
import { I18nProvider, I18nReady } from '@/components/i18n/i18n-provider';
import { SessionGuard } from '@/components/session/session-guard';

export default function SessionLayout({ children }: { children: ReactNode }) {
  return (
    <I18nProvider>
      <SessionGuard>
        <I18nReady>{children}</I18nReady>
      </SessionGuard>
    </I18nProvider>
  );
}
