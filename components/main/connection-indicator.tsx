'use client';

import { useConnectionStatus, type ConnectionStatus } from '@/lib/stores/connection-store';
import styles from './main-screen.module.css';

const LABELS: Record<ConnectionStatus, string> = {
  connected: 'Connected',
  connecting: 'Reconnecting…',
  disconnected: 'Offline',
};

/** Live messages depend on the socket: say so when it is not there. */
export function ConnectionIndicator() {
  const status = useConnectionStatus();
  return (
    <span className={styles.connection} data-state={status} role="status" title={LABELS[status]}>
      <span className={styles.connectionDot} aria-hidden="true" />
      <span className={status === 'connected' ? 'visually-hidden' : undefined}>{LABELS[status]}</span>
    </span>
  );
}
