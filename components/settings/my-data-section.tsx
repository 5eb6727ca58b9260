import { useId, useState } from 'react';
import { useSafetyStore } from '@/lib/stores/safety-store';
import { useT } from '@/lib/i18n';
import buttons from '@/components/ui/button.module.css';
import modal from '@/components/ui/modal.module.css';
import styles from './settings.module.css';

/** The word typed to confirm a deletion; the same in every language, so it is never mistranslated. */
const DELETE_CONFIRMATION_WORD = 'DELETE';

/** Hands a downloaded file to the browser to save. */
function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Download my data; delete my account (typed confirmation, then signed out). */
export function MyDataSection() {
  const t = useT();
  const id = useId();
  const [download, setDownload] = useState<{ state: 'idle' | 'working' | 'done' } | { state: 'failed'; error: string }>({ state: 'idle' });
  const [deleting, setDeleting] = useState<'no' | 'confirming' | 'working'>('no');
  const [typed, setTyped] = useState('');
  const [deleteError, setDeleteError] = useState<string | null>(null);

  async function downloadData() {
    setDownload({ state: 'working' });
    const result = await useSafetyStore.getState().downloadData();
    if (!result.ok) return setDownload({ state: 'failed', error: result.error });
    save(result.blob, result.name);
    setDownload({ state: 'done' });
  }

  async function deleteAccount() {
    setDeleting('working');
    setDeleteError(null);
    const result = await useSafetyStore.getState().deleteAccount();
    if (!result.ok) {
      setDeleting('confirming');
      setDeleteError(result.error);
    }
  }

  return (
    <>
      <section className={styles.section} aria-labelledby={`${id}-data`}>
        <h3 id={`${id}-data`}>{t('privacy.yourData')}</h3>
        <p className={styles.hint}>{t('privacy.downloadHint')}</p>
        <div className={styles.row}>
          <button type="button" className={buttons.button} aria-busy={download.state === 'working'} disabled={download.state === 'working'} onClick={() => void downloadData()}>
            {t('privacy.download')}
          </button>
        </div>
        <p className={modal.status} role="status">
          {download.state === 'working' ? t('privacy.downloading') : download.state === 'done' ? t('privacy.downloaded') : ''}
        </p>
        <p className={modal.error} role="alert">
          {download.state === 'failed' ? t('privacy.downloadFailed', { message: download.error }) : ''}
        </p>
      </section>
      <section className={styles.section} aria-labelledby={`${id}-delete`}>
        <h3 id={`${id}-delete`}>{t('privacy.deleteAccount')}</h3>
        <p className={styles.hint}>{t('privacy.deleteHint')}</p>
        {deleting === 'no' ? (
          <div className={styles.row}>
            <button type="button" className={`${buttons.button} ${modal.danger}`} onClick={() => setDeleting('confirming')}>
              {t('privacy.deleteAccount')}
            </button>
          </div>
        ) : (
          <form
            className={styles.section}
            onSubmit={(event) => {
              event.preventDefault();
              if (typed.trim() === DELETE_CONFIRMATION_WORD) void deleteAccount();
            }}
          >
            <label htmlFor={`${id}-confirm`}>{t('privacy.deleteTypeToConfirm', { word: DELETE_CONFIRMATION_WORD })}</label>
            <input id={`${id}-confirm`} className={styles.confirmInput} autoComplete="off" value={typed} onChange={(event) => setTyped(event.target.value)} />
            <p className={modal.error} role="alert">
              {deleteError ? t('privacy.deleteFailed', { message: deleteError }) : ''}
            </p>
            <div className={styles.row}>
              <button type="button" className={buttons.button} onClick={() => setDeleting('no')}>
                {t('common.cancel')}
              </button>
              <button
                type="submit"
                className={`${buttons.button} ${modal.danger}`}
                disabled={typed.trim() !== DELETE_CONFIRMATION_WORD || deleting === 'working'}
                aria-busy={deleting === 'working'}
              >
                {t('privacy.deleteForever')}
              </button>
            </div>
          </form>
        )}
      </section>
    </>
  );
}
