import { useEffect, useId, useState } from 'react';
import { fetchUploadUsage } from '@/lib/api/accounts';
import type { UploadUsage } from '@/lib/contract';
import { useLanguage, useT } from '@/lib/i18n';
import styles from './storage-usage.module.css';

const UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** Bytes in kilobytes and up ("0 kB", "12 MB", "2 GB"): a quota line never reads "0 byte". Binary steps, as the quota is. */
export function formatStorage(bytes: number, language: string): string {
  let value = Math.max(0, bytes) / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const format = { style: 'unit', unit: UNITS[unit], unitDisplay: 'short', maximumFractionDigits: value < 10 ? 1 : 0 } as const;
  return new Intl.NumberFormat(language, format).format(value);
}

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

  const size = (bytes: number) => formatStorage(bytes, language);
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
