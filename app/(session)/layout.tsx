'use client';

import type { ReactNode } from 'react';
import { SessionGuard } from '@/components/session/session-guard';

export default function SessionLayout({ children }: { children: ReactNode }) {
  return <SessionGuard>{children}</SessionGuard>;
}
