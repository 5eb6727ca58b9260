import { useCallback, type ReactNode } from 'react';
import { formatFileSize, useLanguage, useT } from '@/lib/i18n';
import { CloseIcon, PaperclipIcon } from '@/components/ui/icons';
import type { AttachmentControls } from './use-attachment';
import styles from './composer.module.css';

// The types the server keeps as images (sniffed from the bytes): what the thread will show as one.
const PREVIEWED = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * The picked image itself, from a local URL made for as long as it is shown (a ref callback: made
 * when the element is attached, revoked when it is detached, however often that happens). Its box
 * is fixed, so the chip does not move as it decodes.
 */
function Thumbnail({ file, alt }: { file: File; alt: string }) {
  const attach = useCallback(
    (image: HTMLImageElement | null) => {
      if (!image) return;
      const url = URL.createObjectURL(file);
      image.src = url;
      return () => URL.revokeObjectURL(url);
    },
    [file],
  );
  // A local preview of the picked file (blob:), before it is sent: next/image has nothing to add.
  // eslint-disable-next-line @next/next/no-img-element
  return <img ref={attach} className={styles.thumbnail} alt={alt} width={48} height={48} />;
}

/**
 * The attached file: a thumbnail of an image (else a paperclip), its name and size, the upload's
 * progress, and what can be done with it. The size is the same figure in the chip and in a
 * refusal under it: rounded up when the file is over the limit, so it never reads as the limit.
 */
export function AttachmentChip({ upload }: { upload: AttachmentControls }) {
  const t = useT();
  const language = useLanguage();
  const { state } = upload;
  if (state.status === 'none') return null;

  const { file } = state;
  const size = formatFileSize(file.size, language, { roundUp: state.status === 'too_large' });
  const remove = (
    <button type="button" className={styles.chipButton} aria-label={t('composer.removeAttachment')} title={t('composer.removeAttachment')} onClick={upload.remove}>
      <CloseIcon size={16} />
    </button>
  );
  const retry = (
    <button type="button" className={styles.chipAction} onClick={upload.retry}>
      {t('common.retry')}
    </button>
  );

  let detail: ReactNode = null;
  let actions: ReactNode = remove;
  if (state.status === 'too_large') {
    detail = (
      <p className={styles.chipError} role="alert">
        {t('composer.fileTooLarge', { name: file.name, size, max: formatFileSize(state.max, language) })}
      </p>
    );
  } else if (state.status === 'uploading') {
    const percent = Math.round(state.progress * 100);
    detail = (
      <progress
        className={styles.progress}
        max={100}
        value={percent}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-label={t('composer.uploadProgress', { name: file.name, percent })}
      />
    );
    actions = (
      <button type="button" className={styles.chipButton} aria-label={t('composer.uploadCancel')} title={t('composer.uploadCancel')} onClick={upload.cancel}>
        <CloseIcon size={16} />
      </button>
    );
  } else if (state.status === 'ready') {
    detail = (
      <p className="visually-hidden" role="status">
        {t('composer.uploaded', { name: file.name })}
      </p>
    );
  } else if (state.status === 'cancelled') {
    detail = (
      <p className={styles.chipNote} role="status">
        {t('composer.uploadCancelled')}
      </p>
    );
    actions = (
      <>
        {retry}
        {remove}
      </>
    );
  } else {
    detail = (
      <p className={styles.chipError} role="alert">
        {t('composer.uploadFailed', { message: state.error })}
      </p>
    );
    actions = (
      <>
        {retry}
        {remove}
      </>
    );
  }

  return (
    <div className={styles.chip} data-status={state.status}>
      {PREVIEWED.has(file.type) ? (
        <Thumbnail file={file} alt={t('composer.thumbnailAlt', { name: file.name })} />
      ) : (
        <PaperclipIcon size={16} className={styles.chipIcon} />
      )}
      <div className={styles.chipBody}>
        <p className={styles.chipName}>
          <span className={styles.fileName}>{file.name}</span> <span className={styles.fileSize}>{size}</span>
        </p>
        {detail}
      </div>
      <div className={styles.chipActions}>{actions}</div>
    </div>
  );
}
