import { memo, useState } from 'react';
import { attachmentUrl } from '@/lib/api/attachment-url';
import type { Attachment } from '@/lib/contract';
import type { ThreadMessage } from '@/lib/stores/thread-store';
import { useConnectionStore } from '@/lib/stores/connection-store';
import { formatFileSize, useT } from '@/lib/i18n';
import { formatClock, formatFull, parseTime } from './time-format';
import { LongText } from './long-text';
import { ImageThumb, isViewableImage } from './image-thumb';
import { PaperclipIcon } from '@/components/ui/icons';
import { ReportDialog } from '@/components/people/report-dialog';
import { useEditStore } from '@/lib/stores/edit-store';
import { MessageMenu } from './message-menu';
import { ReplyQuote } from './reply-quote';
import { useThreadStore } from '@/lib/stores/thread-store';
import { MessageEdit } from './message-edit';
import { FailedStatus } from './failed-status';
import { Reactions } from './reactions';
import { useLongPress } from './use-long-press';
import { messageKey } from '@/lib/stores/thread-messages';
import styles from './message-item.module.css';

interface Props {
  message: ThreadMessage;
  own: boolean;
  language: string;
  /** Who sent it, as assistive technology announces it before the text ("You:", "Ada:"). */
  sender?: string;
  /** Follows a message from the same sender within a few minutes: drawn closer to it. */
  continued?: boolean;
  /** The last of such a group: the one that shows the time (and the delivery status). */
  groupEnd?: boolean;
  /** The signed-in user's id (whose reactions are theirs). */
  me?: number | null;
  /** The other person's name (who reacted). */
  peerName?: string;
  /** The user's latest message the other person has read: "Seen" and when go under it. */
  seen?: boolean;
  /** A quote or a search result led here: marked for a moment. */
  highlighted?: boolean;
}

/** Where the user's own message is: on its way, delivered, or failed (failed-status.tsx). */
function MessageStatus({ message }: { message: ThreadMessage }) {
  const t = useT();
  const connected = useConnectionStore((state) => state.status === 'connected');

  if (message.status === 'sending') {
    // Kept in the outbox (it survives a reload) and sent when the connection is back.
    return <span className={styles.status}>{connected ? t('thread.sending') : t('thread.waiting')}</span>;
  }
  if (message.status === 'sent') return <span className={styles.status}>{t('thread.sent')}</span>;
  return <FailedStatus message={message} />;
}

/**
 * An image inline (it opens the image viewer), its box reserved from its stored size; any other
 * file as a link to download it, with its name and size.
 */
function AttachmentView({ attachment, language }: { attachment: Attachment; language: string }) {
  const t = useT();
  const url = attachmentUrl(attachment.url);
  if (isViewableImage(attachment)) return <ImageThumb attachment={attachment} />;
  return (
    // Named by its content ("Download notes.txt 6 bytes"), so what is seen is what is announced.
    <a className={styles.file} href={url} download={attachment.name} target="_blank" rel="noopener noreferrer">
      <PaperclipIcon size={16} />
      <span className="visually-hidden">{t('thread.downloadLabel')}</span>{' '}
      <span className={styles.fileName}>{attachment.name}</span>{' '}
      <span className={styles.fileSize}>{formatFileSize(attachment.size, language)}</span>
    </a>
  );
}

/**
 * One message. Its text is React text, never HTML: whatever someone typed shows as typed, with
 * its web and mail addresses as links. Within a group (same sender, a few minutes apart) only the
 * last message shows the time; the others keep it for assistive technology. A message not sent
 * yet, or refused, always shows where it is.
 */
export const MessageItem = memo(function MessageItem({ message, own, language, sender, continued = false, groupEnd = true, me = null, peerName = '', seen = false, highlighted = false }: Props) {
  const t = useT();
  const time = parseTime(message.created_at);
  const attachment = message.attachment;
  const [reporting, setReporting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [copyFailed, setCopyFailed] = useState(false);
  // A long press opens the actions, as in every chat app on a phone, where the "…" is not shown.
  const [menuRequest, setMenuRequest] = useState(0);
  const longPress = useLongPress(() => setMenuRequest((count) => count + 1));
  const [originalGone, setOriginalGone] = useState(false);
  const peerId = own ? message.recipient_id : message.sender_id;
  const reply = message.reply_to ?? null;
  const openOriginal = (id: number) =>
    void useThreadStore
      .getState()
      .showMessage(peerId, id)
      .then((found) => setOriginalGone(!found));
  const editing = useEditStore((state) => message.id !== null && state.editing === message.id);
  const showMeta = groupEnd || seen || message.edited_at !== null || (own && message.status !== 'sent');
  const seenTime = seen && message.read_at ? parseTime(message.read_at) : null;
  const editedTime = message.edited_at ? parseTime(message.edited_at) : null;
  const clock = time ? (
    <time dateTime={message.created_at} title={formatFull(time, language)}>
      {formatClock(time, language)}
    </time>
  ) : null;

  return (
    <div
      className={styles.message}
      data-own={own}
      data-status={message.status}
      data-continued={continued}
      data-group-end={showMeta}
      data-highlighted={highlighted}
      data-message-id={message.id ?? undefined}
    >
      {/* The bubble and its "…" side by side: the actions take no line of their own. */}
      <div className={styles.bubbleRow}>
        <div className={styles.bubble} data-deleted={message.deleted} {...(message.id !== null ? longPress : {})}>
          {sender ? <span className="visually-hidden">{sender} </span> : null}
          {reply && !message.deleted ? (
            <ReplyQuote
              peerId={peerId}
              summary={reply}
              author={reply.sender_id === me ? t('messageActions.you') : peerName}
              onOpen={() => openOriginal(reply.id)}
            />
          ) : null}
          {message.deleted ? (
            <p className={styles.removed}>{t('messageActions.deleted')}</p>
          ) : editing && message.id !== null ? (
            <MessageEdit messageId={message.id} text={message.text} onFailed={setFailure} />
          ) : message.text ? (
            <LongText text={message.text} messageKey={messageKey(message)} />
          ) : null}
          {attachment && !message.deleted ? <AttachmentView attachment={attachment} language={language} /> : null}
          {message.attachment_removed ? <p className={styles.removed}>{t('safety.attachmentRemoved')}</p> : null}
        </div>
        {/* Stored messages only (a message on its way has no id yet). Shown on hover or keyboard
            focus, so a group of messages stays compact; on a touch screen, by a long press. */}
        {message.id !== null ? (
          <MessageMenu
            message={message as ThreadMessage & { id: number }}
            peerId={peerId}
            own={own}
            me={me}
            onReport={() => setReporting(true)}
            onFailed={setFailure}
            onCopyFailed={() => setCopyFailed(true)}
            openRequest={menuRequest}
          />
        ) : null}
      </div>
      {message.id !== null ? (
        <Reactions messageId={message.id} reactions={message.reactions} me={me} peerName={peerName} onFailed={setFailure} />
      ) : null}
      {showMeta ? (
        <div className={styles.meta}>
          {clock}
          {editedTime ? (
            <span className={styles.edited} title={t('messageActions.editedAt', { time: formatFull(editedTime, language) })}>
              {t('messageActions.edited')}
            </span>
          ) : null}
          {/* Read already, with "Seen" under a later message: "Sent" here would say less than is known. */}
          {own && !seenTime && !(message.status === 'sent' && message.read_at !== null) ? <MessageStatus message={message} /> : null}
          {seenTime ? (
            <span className={styles.status} data-testid="seen" title={formatFull(seenTime, language)}>
              {t('messageActions.seenAt', { time: formatClock(seenTime, language) })}
            </span>
          ) : null}
        </div>
      ) : (
        <div className="visually-hidden">{clock}</div>
      )}
      {originalGone ? (
        <p className={styles.actionError} role="alert">
          {t('replies.unavailable')}
        </p>
      ) : null}
      {failure ? (
        <p className={styles.actionError} role="alert">
          {t('messageActions.failed', { message: failure })}
        </p>
      ) : null}
      {copyFailed ? (
        <p className={styles.actionError} role="alert">
          {t('messageActions.copyFailed')}
        </p>
      ) : null}
      {reporting && message.id !== null ? (
        <ReportDialog target={{ messageId: message.id }} name={t('safety.thisMessage')} onClose={() => setReporting(false)} />
      ) : null}
    </div>
  );
});
