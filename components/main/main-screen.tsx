'use client';

import { useSessionStore } from '@/lib/stores/session-store';
import { AppHeader } from './app-header';
import styles from './main-screen.module.css';

export function MainScreen() {
  const user = useSessionStore((state) => state.user);

  return (
    <div className={styles.shell}>
      <AppHeader />
      <main className={styles.content}>
        <section className={styles.empty} aria-labelledby="welcome-title">
          <h1 id="welcome-title" className={styles.title}>
            Welcome{user?.username ? `, ${user.username}` : ''}
          </h1>
          <p className={styles.muted}>Your conversations will appear here.</p>
        </section>
      </main>
    </div>
  );
}
