'use client';

import { useEffect, useState, type ReactNode } from 'react';
import { usePathname, useRouter } from 'next/navigation';
import { setNavigator } from '@/lib/navigation';
import { areaOf, runGuard, type Area } from '@/lib/session/guard';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/lib/i18n';

/**
 * Runs the token guard (SPEC §2) whenever the user enters an area, and renders the area only
 * once the guard has allowed it: a blocked route never renders, not even for one frame.
 */
export function SessionGuard({ children }: { children: ReactNode }) {
  const t = useT();
  const router = useRouter();
  const area = areaOf(usePathname());
  const [allowedArea, setAllowedArea] = useState<Area | null>(null);

  useEffect(() => setNavigator((path) => router.replace(path)), [router]);

  useEffect(() => {
    let current = true;
    runGuard(area)
      .then((outcome) => {
        if (current && outcome === 'allow') setAllowedArea(area);
      })
      // runGuard turns every expected failure into 'blocked'; anything else is a bug to report.
      .catch((error: unknown) => console.error(error));
    return () => {
      current = false;
      // Leaving an area revokes its permission: coming back must pass the guard again first.
      setAllowedArea(null);
    };
  }, [area]);

  if (allowedArea !== area) return <Spinner label={t('account.loading')} fullScreen />;
  return children;
}
