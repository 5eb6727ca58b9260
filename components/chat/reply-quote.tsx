import { useId } from 'react';
import type { ReplySummary } from '@/lib/contract';
import { useThreadStore } from '@/lib/stores/thread-store';
import { useT } from '@/lib/i18n';
import styles from './reply-quote.module.css';

type Translate = ReturnType<typeof useT>;

/**
 * The answered message as it is now: the copy the thread holds when it holds it (an edit or an
 * unsend shows at once), else the summary the reply came with.
 */
function useQuoted(peerId: number, summary: ReplySummary): ReplySummary {
  const held = useThreadStore((state) => state.threads[peerId]?.messages.find((message) => message.id === summary.id) ?? null);
  if (!held) return summary;
  return {
    ...summary,
    text: held.text,
    deleted: held.deleted,
    attachment: held.attachment ? { name: held.attachment.name, mime_type: held.attachment.mime_type } : null,
  };
}

/** One line for the quote: the first line of the text, else what is attached, or that it was unsent. */
function quoteLine(summary: ReplySummary, t: Translate): string {
  if (summary.deleted) return t('messageActions.deleted');
  const firstLine = summary.text.split('\n').find((line) => line.trim() !== '')?.trim();
  if (firstLine) return firstLine;
  if (summary.attachment) {
    return summary.attachment.mime_type.startsWith('image/') ? t('replies.photo') : t('replies.file', { name: summary.attachment.name });
  }
  return '';
}

interface Props {
  peerId: number;
  summary: ReplySummary;
  /** Who wrote the answered message, as the thread names them ("You", "Ada"). */
  author: string;
  /** In a message: bring the original into view. */
  onOpen?: () => void;
}

/** The quoted start of the message a reply answers; in a message, a button that shows the original. */
export function ReplyQuote({ peerId, summary, author, onOpen }: Props) {
  const t = useT();
  const id = useId();
  const quoted = useQuoted(peerId, summary);
  const line = quoteLine(quoted, t);
  // Named by what it shows (a label of its own would differ from the visible text), described by what it does.
  const body = (
    <>
      <span className={styles.quoteAuthor}>
        <span className="visually-hidden">{t('replies.replyTo')} </span>
        {author}
      </span>
      <span className={styles.quoteText} data-deleted={quoted.deleted}>
        {line}
      </span>
    </>
  );
  if (!onOpen) return <div className={styles.quote}>{body}</div>;
  return (
    <>
      <button type="button" className={styles.quote} onClick={onOpen} aria-describedby={`${id}-hint`}>
        {body}
      </button>
      <span id={`${id}-hint`} className="visually-hidden">
        {t('replies.showOriginal')}
      </span>
    </>
  );
}
