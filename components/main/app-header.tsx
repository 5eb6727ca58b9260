'use client';

import { useState } from 'react';
import { useUnreadCount } from '@/lib/stores/counter-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { userSignOut } from '@/lib/session/session';
import { Avatar } from '@/components/ui/avatar';
import { ConnectionIndicator } from './connection-indicator';
import styles from './main-screen.module.css';

export function AppHeader() {
  const user = useSessionStore((state) => state.user);
  const unread = useUnreadCount();
  const [signingOut, setSigningOut] = useState(false);

  async function signOut() {
    setSigningOut(true);
    await userSignOut();
  }

  const name = user?.username || user?.email || 'You';

  return (
    <header className={styles.header}>
      <span className={styles.brand}>Parley</span>
      <span className={styles.unread} aria-label={`${unread} unread messages`} data-testid="unread-count">
        {unread}
      </span>
      <ConnectionIndicator />
      <div className={styles.account} aria-label="Signed in user">
        <Avatar name={name} src={user?.avatar ?? null} size={32} />
        <span className={styles.identity}>
          <span className={styles.name}>{name}</span>
          {user?.email && user.email !== name ? <span className={styles.muted}>{user.email}</span> : null}
        </span>
        <button type="button" className={styles.signOut} onClick={signOut} disabled={signingOut}>
          {signingOut ? 'Signing out…' : 'Sign out'}
        </button>
      </div>
    </header>
  );
}
