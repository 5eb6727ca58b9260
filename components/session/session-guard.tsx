'use client';

import { useEffect, useState, type ReactNode } from 'react';
import { usePathname, useRouter } from 'next/navigation';
import { setNavigator } from '@/lib/navigation';
import { clearSignedInMark } from '@/lib/session/first-paint';
import { areaOf, runRouteGuard, type Area } from '@/lib/routing/route-guard';
import { Spinner } from '@/components/ui/spinner';
import { useT } from '@/lib/i18n';

/**
 * Runs the token guard's route decision (docs/CLIENT-RULES.md) whenever the user enters an area, and renders
 * the area only once it is allowed: a blocked route is never shown, not even for one frame. With a
 * stored token, the main area's page then loads the user before it shows anything (MainGate):
 * that half needs the API client and the socket, which the sign-in page must not download.
 *
 * One exception, for the first paint of /account (docs/DECISIONS.md): the server renders the sign-in
 * screen itself, and the client's first render keeps it, before the decision. The document's
 * first-paint script has already hidden it if a token is stored (lib/session/first-paint.ts),
 * so a signed-in user still never sees it; the decision then replaces it (spinner, /main) or
 * keeps it.
 */
export function SessionGuard({ children }: { children: ReactNode }) {
  const t = useT();
  const router = useRouter();
  const area = areaOf(usePathname());
  const [allowedArea, setAllowedArea] = useState<Area | null>(null);
  // True until the first decision: the same on the server and in the hydrating render.
  const [firstPaint, setFirstPaint] = useState(true);

  useEffect(() => setNavigator((path, { push = false } = {}) => (push ? router.push(path) : router.replace(path))), [router]);

  useEffect(() => {
    let current = true;
    // After the effect, not in it: the token is read in the browser only (never during SSR).
    void Promise.resolve().then(() => {
      if (!current) return;
      setFirstPaint(false);
      if (runRouteGuard(area) === 'blocked') return;
      // Allowed on /account means no token: nothing may hide the screen any more.
      if (area === 'account') clearSignedInMark();
      setAllowedArea(area);
    });
    return () => {
      current = false;
      // Leaving an area revokes its permission: coming back must pass the guard again first.
      setAllowedArea(null);
    };
  }, [area]);

  const shown = allowedArea === area || (firstPaint && area === 'account');
  if (!shown) return <Spinner label={t('account.loading')} fullScreen />;
  return children;
}
