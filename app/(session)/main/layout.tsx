import type { ReactNode } from 'react';
import { MainGate } from '@/components/main/main-gate';
import { MainScreen } from '@/components/main/main-screen';

/**
 * The signed-in area, for the list (/main) and an open conversation (/main/<user id>) alike: one
 * layout, so moving between them keeps the screen (and its socket, lists, scroll) in place.
 */
export default function MainLayout({ children }: { children: ReactNode }) {
  return (
    <MainGate>
      <MainScreen />
      {children}
    </MainGate>
  );
}
