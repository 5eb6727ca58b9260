'use client';

import { useEffect, useState, type ReactNode } from 'react';
import { usePathname, useRouter } from 'next/navigation';
import { setNavigator } from '@/lib/navigation';
import { areaOf, runRouteGuard, type Area } from '@/lib/session/route-guard';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/lib/i18n';

/**
 * Runs the token guard's route decision (SPEC §2) whenever the user enters an area, and renders
 * the area only once it is allowed: a blocked route never renders, not even for one frame. With a
 * stored token, the main area's page then loads the user before it shows anything (MainGate):
 * that half needs the API client and the socket, which the sign-in page must not download.
 */
export function SessionGuard({ children }: { children: ReactNode }) {
  const t = useT();
  const router = useRouter();
  const area = areaOf(usePathname());
  const [allowedArea, setAllowedArea] = useState<Area | null>(null);

  useEffect(() => setNavigator((path) => router.replace(path)), [router]);

  useEffect(() => {
    let current = true;
    // After the effect, not in it: the token is read in the browser only (never during SSR).
    void Promise.resolve().then(() => {
      if (current && runRouteGuard(area) !== 'blocked') setAllowedArea(area);
    });
    return () => {
      current = false;
      // Leaving an area revokes its permission: coming back must pass the guard again first.
      setAllowedArea(null);
    };
  }, [area]);

  if (allowedArea !== area) return <Spinner label={t('account.loading')} fullScreen />;
  return children;
}
