import { useEffect, useId, useState } from 'react';
import { fetchUploadUsage } from '@/lib/api/accounts';
import type { UploadUsage } from '@/lib/contract';
import { formatFileSize, useLanguage, useT } from '@/lib/i18n';
import styles from './storage-usage.module.css';

type State = { state: 'loading' } | { state: 'ready'; usage: UploadUsage } | { state: 'failed' };

/**
 * "12 MB of 2 GB used": what the user's uploads take against their quota, read each time it is
 * shown (its own request and styles).
 */
export function StorageUsage() {
  const t = useT();
  const language = useLanguage();
  const id = useId();
  const [shown, setShown] = useState<State>({ state: 'loading' });

  useEffect(() => {
    let current = true;
    fetchUploadUsage().then(
      (usage) => current && setShown({ state: 'ready', usage }),
      () => current && setShown({ state: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, []);

  // The one formatter of sizes (decimal units), as the composer and the server's sentences use it.
  const size = (bytes: number) => formatFileSize(bytes, language);
  let text = '';
  if (shown.state === 'failed') text = t('settings.storageUnavailable');
  if (shown.state === 'ready') {
    const { used_bytes: used, quota_bytes: quota } = shown.usage;
    text = quota === null ? t('settings.storageUsedNoQuota', { used: size(used) }) : t('settings.storageUsed', { used: size(used), quota: size(quota) });
  }
  const quota = shown.state === 'ready' ? shown.usage.quota_bytes : null;

  return (
    <div className={styles.storage} aria-busy={shown.state === 'loading'}>
      <span id={`${id}-label`} className={styles.label}>
        {t('settings.storageLabel')}
      </span>
      {shown.state === 'ready' && quota !== null ? (
        <meter className={styles.meter} min={0} max={quota} value={Math.min(shown.usage.used_bytes, quota)} aria-labelledby={`${id}-label`} aria-describedby={`${id}-text`} />
      ) : null}
      <span id={`${id}-text`} className={styles.text} data-state={shown.state}>
        {text}
      </span>
    </div>
  );
}
