import { lazy, Suspense, useState } from 'react';
import { useSessionStore } from '@/lib/stores/session-store';
import { userSignOut } from '@/lib/lifecycle/session';
import { useT } from '@/lib/i18n';
import { Avatar } from '@/components/ui/avatar';
import { SignOutIcon } from '@/components/ui/icons';
import type { SettingsSection } from '@/components/settings/settings-dialog';
import buttons from '@/components/ui/button.module.css';
import { ConnectionIndicator } from './connection-indicator';
import { SettingsMenu } from './settings-menu';
import { UnreadBadge } from './unread-badge';
import styles from './header.module.css';

// Opened now and then: its code (the profile editor, every section) comes when it is first opened.
const SettingsDialog = lazy(() => import('@/components/settings/settings-dialog').then((module) => ({ default: module.SettingsDialog })));

export function AppHeader() {
  const t = useT();
  const user = useSessionStore((state) => state.user);
  const [signingOut, setSigningOut] = useState(false);
  const [settings, setSettings] = useState<SettingsSection | null>(null);

  async function signOut() {
    setSigningOut(true);
    await userSignOut();
  }

  const name = user?.username || user?.email || t('common.you');

  return (
    <header className={styles.header}>
      {/* The page's one level-one heading, on every view (the list's title is hidden on a phone's thread view). */}
      <h1 className={styles.brand}>{t('common.appName')}</h1>
      <UnreadBadge />
      <ConnectionIndicator />
      <div className={styles.account} role="group" aria-label={t('header.signedInUser')}>
        <button type="button" className={styles.accountButton} onClick={() => setSettings('profile')}>
          <Avatar name={name} src={user?.avatar ?? null} size={32} />
          <span className={styles.identity}>
            <span className={styles.name}>{name}</span>
            {user?.email && user.email !== name ? <span className={styles.muted}>{user.email}</span> : null}
          </span>
          <span className="visually-hidden">{t('profile.edit')}</span>
        </button>
      </div>
      <SettingsMenu onOpenSettings={() => setSettings('profile')} />
      <button
        type="button"
        className={`${buttons.button} ${styles.signOut}`}
        onClick={signOut}
        disabled={signingOut}
        aria-busy={signingOut}
      >
        <SignOutIcon size={18} />
        <span className={styles.signOutText}>{signingOut ? t('settings.signingOut') : t('settings.signOut')}</span>
      </button>
      {settings ? (
        <Suspense fallback={null}>
          <SettingsDialog section={settings} onClose={() => setSettings(null)} />
        </Suspense>
      ) : null}
    </header>
  );
}
