import { useConnectionStatus, type ConnectionStatus } from '@/lib/stores/connection-store';
import { useT } from '@/lib/i18n';
import styles from './header.module.css';

const LABELS = {
  connected: 'connection.connected',
  // Before the first connection too: the user only cares that live messages are not flowing yet.
  connecting: 'connection.reconnecting',
  disconnected: 'connection.offline',
  outdated: 'connection.outdated',
} as const satisfies Record<ConnectionStatus, string>;

/** Live messages depend on the socket: say so when it is not there. */
export function ConnectionIndicator() {
  const t = useT();
  const status = useConnectionStatus();
  const label = t(LABELS[status]);
  // The server no longer speaks this page's protocol and reloading by itself did not help
  // (lib/socket/outdated.ts): the person reloads, from here.
  const outdated = status === 'outdated';
  return (
    <span className={styles.connection} data-state={status} role="status" title={outdated ? t('connection.outdatedDetail') : label}>
      <span className={styles.connectionDot} aria-hidden="true" />
      {outdated ? (
        <button type="button" className={styles.connectionAction} onClick={() => window.location.reload()}>
          {label}
        </button>
      ) : (
        <span className={status === 'connected' ? 'visually-hidden' : styles.connectionText}>{label}</span>
      )}
    </span>
  );
}
