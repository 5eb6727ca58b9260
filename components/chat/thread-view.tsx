import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Attachment } from '@/lib/contract';
import { useProfile, usePeopleStore } from '@/lib/stores/people-store';
import { noteTyping, sendMessage, stopTyping } from '@/lib/realtime/messaging-session';
import { useSessionStore } from '@/lib/stores/session-store';
import { useThreadStore } from '@/lib/stores/thread-store';
import { useHidingStore, withoutPending } from '@/lib/stores/hiding-store';
import { useEditStore } from '@/lib/stores/edit-store';
import { useReplyStore } from '@/lib/stores/reply-store';
import { CloseIcon } from '@/components/ui/icons';
import { withinWindow } from '@/lib/realtime/change-requests';
import { messageFromUrl } from '@/lib/routing/conversation-route';
import { useT } from '@/lib/i18n';
import { usePeer } from '@/components/people/use-peer';
import { Spinner } from '@/components/ui/spinner';
import buttons from '@/components/ui/button.module.css';
import { Composer } from './composer';
import { ConversationNotFound } from './conversation-not-found';
import { ImageViewer } from './image-viewer';
import { MessageList } from './message-list';
import { ReplyQuote } from './reply-quote';
import { ThreadHeader } from './thread-header';
import styles from './thread-view.module.css';

// Opening a conversation on a phone should not pop the keyboard over the messages.
const wideScreen = () => typeof window !== 'undefined' && (window.matchMedia?.('(min-width: 720px)').matches ?? false);

/** The conversation with the receiver: who it is with, the messages, and the message box. */
export function ThreadView({ peerId }: { peerId: number }) {
  const t = useT();
  const peer = usePeer(peerId);
  const name = peer?.deleted ? t('safety.deletedAccount') : peer?.username || t('common.unknownUser');
  const profile = useProfile(peerId);
  const { status, error, errorKind, view } = useThreadStore(
    useShallow((state) => ({
      status: state.threads[peerId]?.status ?? 'idle',
      view: state.threads[peerId]?.view ?? 0,
      error: state.threads[peerId]?.error ?? null,
      errorKind: state.threads[peerId]?.errorKind ?? null,
    })),
  );
  const [announcement, setAnnouncement] = useState('');
  const [focusComposer] = useState(wideScreen);
  const me = useSessionStore((state) => state.user?.id ?? null);
  const draftKey = useMemo(() => (me === null ? null : { userId: me, peerId }), [me, peerId]);
  const replyingTo = useReplyStore((state) => state.replying[peerId] ?? null);
  // Choosing "Reply" sends the focus to the box, where the answer is written.
  const [focusRequest, setFocusRequest] = useState(0);
  const [lastReply, setLastReply] = useState(replyingTo);
  if (replyingTo !== lastReply) {
    setLastReply(replyingTo);
    if (replyingTo) setFocusRequest((count) => count + 1);
  }
  // A quote or a search result led to a message: the list marks it for a moment (MessageList);
  // this says which it is, in the region that outlives the list's restarts, to those who cannot
  // see the mark.
  const focus = useThreadStore((state) => state.threads[peerId]?.focus ?? null);
  const focused = useThreadStore((state) => {
    const id = state.threads[peerId]?.focus?.id;
    return typeof id === 'number' ? state.threads[peerId]?.messages.find((message) => message.id === id) : undefined;
  });
  const [announcedFocus, setAnnouncedFocus] = useState<typeof focus>(null);
  if (focus !== announcedFocus && (focus === null || focused)) {
    setAnnouncedFocus(focus);
    if (focused) {
      const sender = focused.sender_id === me ? t('thread.ownSender') : t('thread.peerSender', { name });
      setAnnouncement(t('thread.shownMessage', { sender, text: focused.text || focused.attachment?.name || '' }));
    }
  }

  useEffect(() => {
    // openConversation already started it; a receiver set any other way still gets its thread,
    // around the message its address names (a search result, kept across a reload).
    const target = messageFromUrl();
    if (target !== null) void useThreadStore.getState().showMessage(peerId, target);
    else void useThreadStore.getState().loadThread(peerId);
    void usePeopleStore.getState().loadProfile(peerId);
    // Leaving the conversation stops typing to them.
    return () => stopTyping(peerId);
  }, [peerId]);

  function send(text: string, attachment?: Attachment) {
    setAnnouncement('');
    useReplyStore.getState().cancelReply(peerId);
    // A message goes after the newest ones: a window on older history gives way to them.
    void useThreadStore.getState().jumpToLatest(peerId);
    void sendMessage(peerId, text, { attachment: attachment ?? null, replyTo: replyingTo }).then((result) => {
        // The message says so in the list too; this tells those who cannot see it.
        if (result.status !== 'sent') setAnnouncement(t('thread.failedWithReason', { message: result.error }));
      });
  }

  /** The composer's Up arrow: the user's last message, if it can still be edited, opens for editing. */
  function editLast(): boolean {
    // As the list shows them: without those just deleted for the user (their Undo time running).
    const messages = withoutPending(useThreadStore.getState().threads[peerId]?.messages ?? [], useHidingStore.getState().pending);
    for (let index = messages.length - 1; index >= 0; index -= 1) {
      const message = messages[index]!;
      if (message.sender_id !== me) continue;
      if (message.id === null || message.deleted || message.text === '' || !withinWindow(message.created_at, 'edit')) return false;
      useEditStore.getState().startEditing(message.id);
      return true;
    }
    return false;
  }

  // Nobody by that id (or a deactivated account): the URL was wrong, say so plainly.
  if (status === 'error' && (errorKind === 'notFound' || errorKind === 'invalid')) return <ConversationNotFound />;

  let body;
  if (status === 'ready') {
    // Messages replaced by a window around one (a quote, a search result): the list starts over there.
    body = <MessageList key={view} peerId={peerId} name={name} />;
  } else if (status === 'error') {
    body = (
      <div className={styles.problem} role="alert">
        <p>{t('thread.loadFailed', { message: error ?? t('common.errorGeneric') })}</p>
        <button type="button" className={buttons.button} onClick={() => void useThreadStore.getState().loadThread(peerId)}>
          {t('common.retry')}
        </button>
      </div>
    );
  } else {
    body = (
      <div className={styles.problem}>
        <Spinner label={t('common.loading')} />
      </div>
    );
  }

  return (
    <section className={styles.thread} aria-label={t('thread.title', { name })}>
      <ThreadHeader peerId={peerId} peer={peer} name={name} />
      <div className={styles.body}>{body}</div>
      {cannotMessage(peer?.deleted ?? false, profile) ? (
        // Said before anyone types: the server would refuse the message anyway.
        <p className={styles.cannotMessage}>
          {peer?.deleted ? t('safety.deletedNoReply') : profile?.blocked ? t('safety.youBlocked', { name }) : t('safety.cannotMessage')}
        </p>
      ) : (
        <Composer
          onSend={send}
          onTextChange={(text) => noteTyping(peerId, text.trim() !== '')}
          onBlur={() => stopTyping(peerId)}
          placeholder={t('composer.placeholderTo', { name })}
          autoFocus={focusComposer}
          draftKey={draftKey}
          onEditLast={editLast}
          focusRequest={focusRequest}
          onEscape={() => {
            if (!replyingTo) return false;
            useReplyStore.getState().cancelReply(peerId);
            return true;
          }}
          above={
            replyingTo ? (
              <div className={styles.replying} aria-label={t('replies.replyingTo', { name: replyingTo.sender_id === me ? t('messageActions.you') : name })} role="group">
                <ReplyQuote peerId={peerId} summary={replyingTo} author={replyingTo.sender_id === me ? t('messageActions.you') : name} />
                <button
                  type="button"
                  className={buttons.icon}
                  aria-label={t('replies.cancel')}
                  title={t('replies.cancel')}
                  onClick={() => useReplyStore.getState().cancelReply(peerId)}
                >
                  <CloseIcon size={16} />
                </button>
              </div>
            ) : null
          }
        />
      )}
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      <ImageViewer peerId={peerId} />
    </section>
  );
}

/** What the server already says about this person: deleted, blocked by the user, or not accepting the user's messages. */
function cannotMessage(deleted: boolean, profile: { blocked: boolean; can_message: boolean } | undefined): boolean {
  return deleted || profile?.blocked === true || profile?.can_message === false;
}
