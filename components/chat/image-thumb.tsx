import type { CSSProperties } from 'react';
import { attachmentUrl } from '@/lib/api/attachment-url';
import type { Attachment } from '@/lib/contract';
import { useImageViewerStore } from '@/lib/stores/image-viewer-store';
import { useT } from '@/lib/i18n';
import styles from './image-thumb.module.css';

/** An image the thread shows inline and the viewer can open: one the server sniffed as an image, with its size. */
export const isViewableImage = (attachment: Attachment): attachment is Attachment & { width: number; height: number } =>
  attachment.mime_type.startsWith('image/') && Boolean(attachment.width) && Boolean(attachment.height);

/**
 * An image in the thread, its box reserved from its stored size (aspect-ratio + width, capped by
 * the bubble) so the list does not move when it loads; pressing it opens the image viewer.
 */
export function ImageThumb({ attachment }: { attachment: Attachment & { width: number; height: number } }) {
  const t = useT();
  const { width, height } = attachment;
  const box: CSSProperties = { aspectRatio: `${width} / ${height}`, width: `${width}px` };
  return (
    <button
      type="button"
      className={`${styles.imageLink} ${styles.open}`}
      aria-haspopup="dialog"
      data-image-id={attachment.id}
      onClick={() => useImageViewerStore.getState().show(attachment.id)}
    >
      {/* The API serves the upload as stored; its size is known, so there is nothing for next/image to add. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img
        className={styles.image}
        src={attachmentUrl(attachment.url)}
        width={width}
        height={height}
        alt={t('thread.imageAlt', { name: attachment.name })}
        loading="lazy"
        decoding="async"
        style={box}
      />
    </button>
  );
}
