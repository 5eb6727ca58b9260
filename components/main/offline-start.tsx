'use client';

import { useEffect, useState } from 'react';
import { useLanguage, useT } from '@/lib/i18n';
import { appOfflineSnapshots, type OfflineSnapshot, type OfflineSnapshotStorage, type OfflineThread } from '@/lib/offline/offline-snapshot';
import { createOutboxStorage, type OutboxEntry, type OutboxStorage } from '@/lib/outbox/outbox-storage';
import { getStoredToken } from '@/lib/session/storage';
import { OfflineHistory } from './offline-history';
import styles from './main-screen.module.css';

interface Saved {
  snapshot: OfflineSnapshot;
  threads: Record<number, OfflineThread>;
  entries: OutboxEntry[];
}

async function loadSaved(snapshots: OfflineSnapshotStorage | null, outbox: OutboxStorage): Promise<Saved | null> {
  const token = getStoredToken();
  const snapshot = token === null ? null : await snapshots?.load(token);
  if (!snapshot || !snapshots || token === null) return null;
  const [entries, ...threads] = await Promise.all([
    outbox.load(snapshot.userId),
    ...snapshot.recent.map((peerId) => snapshots.loadThread(token, peerId).catch(() => null)),
  ]);
  const byPeer: Record<number, OfflineThread> = {};
  for (const thread of threads) if (thread) byPeer[thread.peerId] = thread;
  return { snapshot, threads: byPeer, entries };
}

/** The person whose conversation the address names (/main/<id>), if any. */
function addressedPeer(): number | null {
  const match = /^\/main\/(\d+)\/?$/.exec(typeof window === 'undefined' ? '' : window.location.pathname);
  return match ? Number(match[1]) : null;
}

export interface OfflineStartProps {
  /** Tests pass their own; the browser's IndexedDB otherwise. */
  snapshots?: OfflineSnapshotStorage | null;
  outbox?: OutboxStorage;
}

/**
 * The main area opened with no network (an installed app offline): it stays closed until the
 * current user is loaded (docs/CLIENT-RULES.md), and meanwhile shows what this browser kept of the
 * same session: what is waiting to be sent, the conversation list and the conversations opened
 * last, marked as saved earlier. Once online, the area opens with the server's answers instead.
 */
export function OfflineStart({ snapshots, outbox }: OfflineStartProps) {
  const t = useT();
  const language = useLanguage();
  const [saved, setSaved] = useState<Saved | null>(null);

  useEffect(() => {
    let current = true;
    loadSaved(snapshots === undefined ? appOfflineSnapshots() : snapshots, outbox ?? createOutboxStorage())
      .then((loaded) => {
        if (current) setSaved(loaded);
      })
      // Nothing to show is the same as nothing kept here.
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [snapshots, outbox]);

  const entries = saved?.entries ?? [];
  const savedAt = saved?.snapshot.savedAt ? new Date(saved.snapshot.savedAt) : null;
  const names = saved?.snapshot.names ?? {};
  return (
    <main className={styles.offline}>
      <div className={styles.offlineBody}>
        <p role="status">{t('connection.offlineStart')}</p>
        {savedAt && !Number.isNaN(savedAt.getTime()) && saved && saved.snapshot.conversations.length > 0 ? (
          <p>{t('connection.offlineSavedAt', { time: new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(savedAt) })}</p>
        ) : null}
        {entries.length > 0 && (
          <section aria-labelledby="offline-outbox">
            <h1 id="offline-outbox" className={styles.offlineHeading}>
              {t('connection.offlineOutbox', { count: entries.length })}
            </h1>
            <ul className={styles.offlineList}>
              {entries.map((entry) => (
                <li key={entry.client_id}>
                  <span className={styles.offlineTo}>{t('connection.offlineTo', { name: names[entry.recipient_id] ?? t('common.unknownUser') })}</span>
                  <span className={styles.offlineText}>{entry.text.trim() !== '' ? entry.text : entry.attachment?.name}</span>
                </li>
              ))}
            </ul>
          </section>
        )}
        {saved && saved.snapshot.conversations.length > 0 ? (
          <OfflineHistory
            userId={saved.snapshot.userId}
            conversations={saved.snapshot.conversations}
            threads={saved.threads}
            unsent={entries}
            initialPeer={addressedPeer()}
          />
        ) : null}
      </div>
    </main>
  );
}
