'use client';

import { useEffect, useState } from 'react';
import { useT } from '@/lib/i18n';
import { appOfflineSnapshots, type OfflineSnapshotStorage } from '@/lib/offline/offline-snapshot';
import { createOutboxStorage, type OutboxEntry, type OutboxStorage } from '@/lib/outbox/outbox-storage';
import { getStoredToken } from '@/lib/session/storage';
import styles from './main-screen.module.css';

interface Pending {
  entries: OutboxEntry[];
  names: Record<number, string>;
}

async function loadPending(snapshots: OfflineSnapshotStorage | null, outbox: OutboxStorage): Promise<Pending | null> {
  const token = getStoredToken();
  const snapshot = token === null ? null : await snapshots?.load(token);
  if (!snapshot) return null;
  return { entries: await outbox.load(snapshot.userId), names: snapshot.names };
}

export interface OfflineStartProps {
  /** Tests pass their own; the browser's IndexedDB otherwise. */
  snapshots?: OfflineSnapshotStorage | null;
  outbox?: OutboxStorage;
}

/**
 * The main area opened with no network (an installed app offline): it stays closed until the
 * current user is loaded (docs/CLIENT-RULES.md), and meanwhile shows what is waiting to be sent,
 * read from this browser alone (the outbox and the offline snapshot of the same session).
 */
export function OfflineStart({ snapshots, outbox }: OfflineStartProps) {
  const t = useT();
  const [pending, setPending] = useState<Pending | null>(null);

  useEffect(() => {
    let current = true;
    loadPending(snapshots === undefined ? appOfflineSnapshots() : snapshots, outbox ?? createOutboxStorage())
      .then((loaded) => {
        if (current) setPending(loaded);
      })
      // Nothing to list is the same as an empty outbox here.
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [snapshots, outbox]);

  const entries = pending?.entries ?? [];
  return (
    <main className={styles.offline}>
      <div className={styles.offlineBody}>
        <p role="status">{t('connection.offlineStart')}</p>
        {entries.length > 0 && pending && (
          <section aria-labelledby="offline-outbox">
            <h1 id="offline-outbox" className={styles.offlineHeading}>
              {t('connection.offlineOutbox', { count: entries.length })}
            </h1>
            <ul className={styles.offlineList}>
              {entries.map((entry) => (
                <li key={entry.client_id}>
                  <span className={styles.offlineTo}>{t('connection.offlineTo', { name: pending.names[entry.recipient_id] ?? t('common.unknownUser') })}</span>
                  <span className={styles.offlineText}>{entry.text.trim() !== '' ? entry.text : entry.attachment?.name}</span>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </main>
  );
}
