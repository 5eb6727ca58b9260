import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso';
import { useShallow } from 'zustand/react/shallow';
import { messageKey } from '@/lib/stores/thread-messages';
import { useThreadMessages, useThreadStore, type ThreadMessage } from '@/lib/stores/thread-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { useViewStore } from '@/lib/stores/view-store';
import { useT, useLanguage } from '@/lib/i18n';
import { ArrowDownIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { addedAtEnd, createFollowStreak, followFor } from './follow-output';
import { MessageItem } from './message-item';
import { ItemFrame, SEEN_AFTER_MS } from './item-frame';
import { daysBetween, formatDay, parseTime } from './time-format';
import { useNow } from './use-now';
import styles from './message-list.module.css';

// Virtuoso numbers items from here, counting down as older pages are put in front, so the
// messages already on screen keep their indexes (and their place) when history arrives.
const START_INDEX = 1_000_000_000;
/**
 * A one-line message's height in pixels, about: the list's first pass places the messages by it
 * (and measures them after), so it opens at the newest message in fewer passes.
 */
const DEFAULT_ITEM_HEIGHT = 52;

/** How long a message a quote or a search result led to stays marked. */
const HIGHLIGHT_MS = 4_000;
/** Messages of one sender this close together form a group that shows one time. */
const GROUP_WINDOW_MS = 5 * 60_000;

interface ListContext {
  peerId: number;
  name: string;
  messages: ThreadMessage[];
  firstItemIndex: number;
  me: number | null;
  language: string;
  now: Date;
  hasMore: boolean;
  loadingOlder: boolean;
  error: string | null;
  /** Where the "N new messages" line goes (before this message), and N. */
  divider: { key: string; count: number } | null;
  ownSender: string;
  peerSender: string;
  /** The user's latest message the other person has read (its key): "Seen" goes under it. */
  seenKey: string | null;
  /** The id of the message marked for a moment (a quote or a search result led to it). */
  highlightId: number | null;
  /** A window away from the newest messages is shown: newer pages follow it. */
  detached: boolean;
  loadingNewer: boolean;
}

/** Unread: the other person's message, not read yet. */
const isUnread = (message: ThreadMessage, peerId: number) => message.sender_id === peerId && message.read_at === null;

/** The same sender, the same day, a few minutes apart at most: one group, one time. */
export function sameGroup(a: ThreadMessage | undefined, b: ThreadMessage | undefined): boolean {
  if (!a || !b || a.sender_id !== b.sender_id) return false;
  const first = parseTime(a.created_at);
  const second = parseTime(b.created_at);
  if (!first || !second || daysBetween(first, second) !== 0) return false;
  return Math.abs(second.getTime() - first.getTime()) <= GROUP_WINDOW_MS;
}

/** The top of the list: older messages loading, a way to ask for them, or the very beginning. */
function ListHeader({ context }: { context: ListContext }) {
  const t = useT();
  if (context.loadingOlder) {
    return (
      <div className={styles.listHeader}>
        <Spinner label={t('thread.loadingOlder')} />
      </div>
    );
  }
  if (!context.hasMore) {
    return <p className={styles.listHeader}>{t('thread.beginning', { name: context.name })}</p>;
  }
  return (
    <div className={styles.listHeader}>
      {context.error ? <p className={styles.listError}>{t('thread.loadFailed', { message: context.error })}</p> : null}
      <button type="button" className={styles.loadOlder} onClick={() => void useThreadStore.getState().loadOlder(context.peerId)}>
        {t('thread.loadOlder')}
      </button>
    </div>
  );
}

/** The bottom of a window on older history: newer messages loading, or a way to ask for them. */
function ListFooter({ context }: { context: ListContext }) {
  const t = useT();
  if (!context.detached) return null;
  return (
    <div className={styles.listFooter}>
      {context.loadingNewer ? (
        <Spinner label={t('replies.loadingNewer')} />
      ) : (
        <button type="button" className={styles.loadOlder} onClick={() => void useThreadStore.getState().loadNewer(context.peerId)}>
          {t('replies.loadNewer')}
        </button>
      )}
    </div>
  );
}

function DaySeparator({ date, now, language }: { date: Date; now: Date; language: string }) {
  const t = useT();
  const days = daysBetween(date, now);
  const label = days === 0 ? t('thread.today') : days === 1 ? t('thread.yesterday') : formatDay(date, now, language);
  return (
    <div className={styles.day} role="separator" aria-label={label}>
      <span aria-hidden="true">{label}</span>
    </div>
  );
}

function NewMessagesDivider({ count }: { count: number }) {
  const t = useT();
  const label = t('thread.newMessages', { count });
  return (
    <div className={styles.newMessages} role="separator" aria-label={label}>
      <span aria-hidden="true">{label}</span>
    </div>
  );
}

function itemContent(index: number, message: ThreadMessage, context: ListContext) {
  const position = index - context.firstItemIndex;
  const previous = context.messages[position - 1];
  const next = context.messages[position + 1];
  const date = parseTime(message.created_at);
  const previousDate = previous ? parseTime(previous.created_at) : null;
  const newDay = date !== null && (previousDate === null || daysBetween(previousDate, date) !== 0);
  const dividerHere = context.divider?.key === messageKey(message);
  const dividerNext = next !== undefined && context.divider?.key === messageKey(next);
  const own = message.sender_id === context.me;
  return (
    <ItemFrame peerId={context.peerId} watchId={isUnread(message, context.peerId) ? message.id : null}>
      {newDay ? <DaySeparator date={date} now={context.now} language={context.language} /> : null}
      {dividerHere && context.divider ? <NewMessagesDivider count={context.divider.count} /> : null}
      <MessageItem
        message={message}
        own={own}
        language={context.language}
        sender={own ? context.ownSender : context.peerSender}
        continued={!dividerHere && sameGroup(previous, message)}
        groupEnd={dividerNext || !sameGroup(message, next)}
        me={context.me}
        peerName={context.name}
        seen={context.seenKey === messageKey(message)}
        highlighted={message.id !== null && message.id === context.highlightId}
      />
    </ItemFrame>
  );
}

const computeItemKey = (_index: number, message: ThreadMessage) => messageKey(message);
const components = { Header: ListHeader, Footer: ListFooter };

/**
 * The thread, virtualised (only the messages in view are in the page, so 10,000 stay smooth):
 * it opens at the newest message, loads older pages as the user scrolls up, and follows new
 * messages while the user is at the bottom (always for the user's own).
 */
export function MessageList({ peerId, name }: { peerId: number; name: string }) {
  const t = useT();
  const language = useLanguage();
  const now = useNow();
  const me = useSessionStore((state) => state.user?.id ?? null);
  const messages = useThreadMessages(peerId);
  const { hasMore, loadingOlder, error, detached, loadingNewer, focus } = useThreadStore(
    useShallow((state) => ({
      hasMore: (state.threads[peerId]?.nextCursor ?? null) !== null,
      loadingOlder: state.threads[peerId]?.loadingOlder ?? false,
      error: state.threads[peerId]?.error ?? null,
      detached: (state.threads[peerId]?.newerCursor ?? null) !== null,
      loadingNewer: state.threads[peerId]?.loadingNewer ?? false,
      focus: state.threads[peerId]?.focus ?? null,
    })),
  );
  const focusIndex = !focus ? -1 : focus.id === 'latest' ? messages.length - 1 : messages.findIndex((message) => message.id === focus.id);
  const focusAlign = focus?.id === 'latest' ? ('end' as const) : ('center' as const);
  const [highlightId, setHighlightId] = useState<number | null>(null);
  const virtuoso = useRef<VirtuosoHandle>(null);
  // Whether the newest message is on screen: unknown (null) until the list has measured itself
  // and said so, so that nothing is read before it is seen.
  const [atBottom, setAtBottom] = useState<boolean | null>(null);

  // Read marking waits for the newest message to be on screen (lib/realtime/read-marking.ts), and
  // to stay there a moment: while the list settles after opening, it can pass by the bottom.
  // A window on older history is not the newest message, however far down it is scrolled.
  const seesNewest = atBottom === true && !detached;
  useEffect(() => {
    if (!seesNewest) {
      useViewStore.getState().setSeesLatest(false);
      return;
    }
    const timer = setTimeout(() => useViewStore.getState().setSeesLatest(true), SEEN_AFTER_MS);
    return () => clearTimeout(timer);
  }, [seesNewest]);
  useEffect(
    () => () => {
      useViewStore.getState().setSeesLatest(false);
      useViewStore.getState().clearSeen();
    },
    [],
  );

  // The "N new messages" line: before the first unread message, counting it and the peer's
  // messages after it. Placed when the conversation opens with unread messages, or when one
  // arrives that the user cannot see (scrolled up, another tab); a message read as it arrives
  // places none. It holds its place while the messages below it are read (they are read as they
  // come into view), counting in what arrives before they all are; once they are all read, the
  // next message that arrives unseen places it again. It goes when the conversation is closed.
  const unread = messages.filter((message) => isUnread(message, peerId)).length;
  const firstUnread = messages.find((message) => isUnread(message, peerId));
  const last = messages[messages.length - 1];
  const dividerFrom = (first: ThreadMessage) => ({
    key: messageKey(first),
    count: messages.slice(messages.indexOf(first)).filter((message) => message.sender_id === peerId).length,
    through: messageKey(last ?? first),
  });
  const [divider, setDivider] = useState(() => (firstUnread ? dividerFrom(firstUnread) : null));
  const seen = atBottom === true && typeof document !== 'undefined' && document.visibilityState === 'visible';
  if (firstUnread && !seen) {
    const unreadAt = messages.indexOf(firstUnread);
    const at = divider ? messages.findIndex((message) => messageKey(message) === divider.key) : -1;
    const through = divider ? messages.findIndex((message) => messageKey(message) === divider.through) : -1;
    const held = at !== -1 && at <= unreadAt && unreadAt <= through ? messages[at] : undefined;
    const placed = dividerFrom(held ?? firstUnread);
    if (divider?.key !== placed.key || divider.count !== placed.count || divider.through !== placed.through) setDivider(placed);
  }
  // Messages that arrive while the conversation is open are announced, politely: who, and what.
  const [announced, setAnnounced] = useState({ key: last ? messageKey(last) : null, text: '' });
  if (last && messageKey(last) !== announced.key) {
    const fromPeer = last.sender_id === peerId && last.id !== null;
    const what = last.text || last.attachment?.name || '';
    setAnnounced({ key: messageKey(last), text: fromPeer ? t('thread.incoming', { name, text: what }) : announced.text });
  }

  // Where the list opens: at the message asked for (a window around it replaced the messages, or
  // the newest replaced a window, and ThreadView started the list over), else at the first unread
  // message, else at the newest.
  const [openAt] = useState(() => {
    if (focusIndex >= 0) return { index: focusIndex, align: focusAlign, nonce: focus?.nonce };
    const index = firstUnread ? messages.indexOf(firstUnread) : -1;
    return index >= 0 ? { index, align: 'start' as const } : { index: Math.max(0, messages.length - 1), align: 'end' as const };
  });

  // The message that was first when the list appeared: however many come before it now were
  // prepended. If it is gone (the thread restarted after a long disconnection), start over.
  const [anchor, setAnchor] = useState<{ key: string | null; epoch: number }>(() => ({
    key: messages[0] ? messageKey(messages[0]) : null,
    epoch: 0,
  }));
  let offset = anchor.key === null ? 0 : messages.findIndex((message) => messageKey(message) === anchor.key);
  let epoch = anchor.epoch;
  if (offset === -1 || (anchor.key === null && messages[0])) {
    epoch += offset === -1 ? 1 : 0;
    setAnchor({ key: messages[0] ? messageKey(messages[0]) : null, epoch });
    offset = 0;
  }
  const firstItemIndex = START_INDEX - offset;

  // How many messages the latest change added at the end (followFor): older pages put in front
  // are not new messages to follow. Messages that came while a window was shown are its newer
  // pages (live ones wait aside): the reader scrolled toward them, or they fill a short window;
  // the list stays where it is.
  const lastKey = last ? messageKey(last) : null;
  const count = { length: messages.length, offset, epoch };
  const [counted, setCounted] = useState({ ...count, lastKey, added: 0, detached, paged: false });
  const grown = counted.length !== messages.length || counted.lastKey !== lastKey;
  const added = grown ? addedAtEnd(counted, count) : counted.added;
  const paged = grown ? counted.detached : counted.paged;
  if (grown) setCounted({ ...count, lastKey, added, detached, paged });
  else if (counted.detached !== detached) setCounted({ ...counted, detached });

  const [streak] = useState(createFollowStreak);
  const ownSending = last !== undefined && last.sender_id === me && last.status === 'sending';
  const followOutput = useCallback(
    (isAtBottom: boolean) => {
      const follow = followFor({ isAtBottom, added, paged, ownSending, sinceFollowedMs: streak.sinceFollowedMs() });
      if (follow) streak.followed();
      return follow;
    },
    [ownSending, added, paged, streak],
  );
  // Given a followOutput, Virtuoso also pins a list that grows right after a render while at the
  // bottom, as an opening list seems to be before it is measured: one opened elsewhere follows
  // nothing until it has been at the newest or the user sends (docs/DECISIONS.md).
  const [follows, setFollows] = useState(openAt.align === 'end');
  if (!follows && (atBottom === true || ownSending)) setFollows(true);

  // "Seen" (and when) under the user's latest message the other person has read: where their
  // reading reached (newer messages after it show "Sent").
  let seenKey: string | null = null;
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.sender_id === me && message.read_at !== null && !message.deleted) {
      seenKey = messageKey(message);
      break;
    }
  }

  // A quote or a search result asked for a message: bring it to the middle and mark it a moment
  // (ThreadView says which it is). The list opened at it if it came with a window (openAt); one
  // already held is scrolled to.
  if (focus && typeof focus.id === 'number' && focusIndex >= 0 && highlightId !== focus.id) setHighlightId(focus.id);
  useEffect(() => {
    if (!focus || focusIndex < 0) return;
    if (openAt.nonce !== focus.nonce) virtuoso.current?.scrollToIndex({ index: focusIndex, align: focusAlign });
    useThreadStore.getState().clearFocus(peerId);
  }, [focus, focusIndex, focusAlign, peerId, openAt]);
  useEffect(() => {
    if (highlightId === null) return;
    const timer = setTimeout(() => setHighlightId(null), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlightId]);

  const context: ListContext = {
    peerId,
    name,
    messages,
    firstItemIndex,
    me,
    language,
    now,
    hasMore,
    loadingOlder,
    error,
    divider,
    ownSender: t('thread.ownSender'),
    peerSender: t('thread.peerSender', { name }),
    seenKey,
    highlightId,
    detached,
    loadingNewer,
  };
  const jumpLabel = unread > 0 ? t('thread.jumpToLatestCount', { count: unread }) : t('thread.jumpToLatest');

  return (
    // The reader's own scrolling ends a follow streak (createFollowStreak).
    <div className={styles.listWrap} onWheel={streak.readerScrolled} onTouchMove={streak.readerScrolled} onKeyDown={streak.readerScrolled}>
      <Virtuoso
        key={anchor.epoch}
        ref={virtuoso}
        className={styles.scroller}
        data={messages}
        context={context}
        firstItemIndex={firstItemIndex}
        initialTopMostItemIndex={{ index: openAt.index, align: openAt.align }}
        computeItemKey={computeItemKey}
        itemContent={itemContent}
        components={components}
        followOutput={follows ? followOutput : false}
        alignToBottom
        atBottomThreshold={120}
        atBottomStateChange={setAtBottom}
        startReached={() => void useThreadStore.getState().loadOlder(peerId)}
        endReached={() => void useThreadStore.getState().loadNewer(peerId)}
        increaseViewportBy={{ top: 600, bottom: 300 }}
        defaultItemHeight={DEFAULT_ITEM_HEIGHT}
        tabIndex={0}
        aria-label={t('thread.title', { name })}
      />
      {atBottom === false || detached ? (
        <button
          type="button"
          className={styles.jump}
          aria-label={jumpLabel}
          title={jumpLabel}
          onClick={() => {
            // A window on older history is left for the newest messages, reloaded.
            if (detached) void useThreadStore.getState().jumpToLatest(peerId);
            else virtuoso.current?.scrollToIndex({ index: 'LAST', align: 'end' });
          }}
        >
          <ArrowDownIcon />
          {unread > 0 ? (
            <span className={styles.jumpCount} aria-hidden="true" data-testid="jump-count">
              {unread > 99 ? '99+' : unread}
            </span>
          ) : null}
        </button>
      ) : null}
      {/* Outside the conversation's region, so its copy of a message is not a second one there. */}
      {typeof document !== 'undefined'
        ? createPortal(
            <p className="visually-hidden" aria-live="polite" data-testid="incoming-announcement">
              {announced.text}
            </p>,
            document.body,
          )
        : null}
    </div>
  );
}
