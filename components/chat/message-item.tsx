import { memo, useState } from 'react';
import type { CSSProperties } from 'react';
import { attachmentUrl } from '@/lib/api/attachment-url';
import type { Attachment } from '@/lib/contract';
import type { ThreadMessage } from '@/lib/stores/thread-store';
import { retryMessage } from '@/lib/realtime/messaging-session';
import { useConnectionStore } from '@/lib/stores/connection-store';
import { formatFileSize, useT } from '@/lib/i18n';
import { formatClock, formatFull, parseTime } from './time-format';
import { PaperclipIcon } from '@/components/ui/icons';
import { ReportDialog } from '@/components/people/report-dialog';
import styles from './thread.module.css';

interface Props {
  message: ThreadMessage;
  own: boolean;
  language: string;
  /** Follows a message from the same sender: drawn closer to it. */
  continued?: boolean;
}

/** Where the user's own message is: on its way, delivered, or failed with a way to try again. */
export function MessageStatus({ message }: { message: ThreadMessage }) {
  const t = useT();
  const connected = useConnectionStore((state) => state.status === 'connected');

  if (message.status === 'sending') {
    // Kept in the outbox (it survives a reload) and sent when the connection is back.
    return <span className={styles.status}>{connected ? t('thread.sending') : t('thread.waiting')}</span>;
  }
  if (message.status === 'sent') return <span className={styles.status}>{t('thread.sent')}</span>;
  return (
    <span className={styles.failed}>
      <span>{message.error ? t('thread.failedWithReason', { message: message.error }) : t('thread.failed')}</span>
      <button type="button" className={styles.retry} onClick={() => void retryMessage(message.client_id)}>
        {t('thread.retry')}
      </button>
    </span>
  );
}

const isImage = (attachment: Attachment) => attachment.mime_type.startsWith('image/');

/**
 * An image inline, its box reserved from its stored size (aspect-ratio + max-width) so the list
 * does not jump when it loads; any other file as a link to download it, with its name and size.
 */
export function AttachmentView({ attachment, language }: { attachment: Attachment; language: string }) {
  const t = useT();
  const { width, height } = attachment;
  const url = attachmentUrl(attachment.url);
  if (isImage(attachment) && width && height) {
    const box: CSSProperties = { aspectRatio: `${width} / ${height}`, width: `${width}px` };
    return (
      <a className={styles.imageLink} href={url} target="_blank" rel="noopener noreferrer">
        {/* The API serves the upload as stored; its size is known, so there is nothing for next/image to add. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img className={styles.image} src={url} width={width} height={height} alt={t('thread.imageAlt', { name: attachment.name })} loading="lazy" decoding="async" style={box} />
      </a>
    );
  }
  return (
    <a className={styles.file} href={url} download={attachment.name} target="_blank" rel="noopener noreferrer" aria-label={t('thread.download', { name: attachment.name })}>
      <PaperclipIcon size={16} />
      <span className={styles.fileName}>{attachment.name}</span>
      <span className={styles.fileSize}>{formatFileSize(attachment.size, language)}</span>
    </a>
  );
}

/** One message. Its text is React text, never HTML: whatever someone typed shows as typed. */
export const MessageItem = memo(function MessageItem({ message, own, language, continued = false }: Props) {
  const t = useT();
  const time = parseTime(message.created_at);
  const attachment = message.attachment;
  const [reporting, setReporting] = useState(false);

  return (
    <div className={styles.message} data-own={own} data-status={message.status} data-continued={continued}>
      <div className={styles.bubble}>
        {message.text ? <p className={styles.text}>{message.text}</p> : null}
        {attachment ? <AttachmentView attachment={attachment} language={language} /> : null}
        {message.attachment_removed ? <p className={styles.removed}>{t('safety.attachmentRemoved')}</p> : null}
      </div>
      <div className={styles.meta}>
        {time ? (
          <time dateTime={message.created_at} title={formatFull(time, language)}>
            {formatClock(time, language)}
          </time>
        ) : null}
        {own ? <MessageStatus message={message} /> : null}
        {/* Only messages one received can be reported (the server answers 404 for any other). */}
        {!own && message.id !== null ? (
          <button type="button" className={styles.reportMessage} onClick={() => setReporting(true)}>
            {t('safety.reportMessage')}
          </button>
        ) : null}
      </div>
      {reporting && message.id !== null ? (
        <ReportDialog target={{ messageId: message.id }} name={t('safety.thisMessage')} onClose={() => setReporting(false)} />
      ) : null}
    </div>
  );
});
