// The thread as a whole, with react-virtuoso replaced by a list that renders every item (jsdom
// has no layout, so the real one would render none): what is sent shows at once as "Sending…",
// the ack turns it "Sent", a refusal "Not sent" with its reason; older pages go in front.
import type { ComponentType, ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ConversationThreadPage, Profile, SendPayload } from '@/lib/contract';
import { SEND_REFUSALS } from '@/lib/contract';
import { initI18n } from '@/lib/i18n';
import { createMemoryOutboxStorage } from '@/lib/outbox/outbox-storage';
import { startMessagingSession, stopMessagingSession } from '@/lib/realtime/messaging-session';
import { socketService } from '@/lib/socket/socket-service';
import { connectFakeSocket, resetFakeSocketService } from '@/lib/socket/testing/fake-service';
import { defaultAck, type FakeSocket } from '@/lib/socket/testing/fake-socket';
import { publishUser } from '@/lib/stores/session-store';
import { useThreadStore } from '@/lib/stores/thread-store';
import { deferred, settle } from '@/lib/testing/deferred';
import { conversationIdOf, conversationMessage, ME, message, threadPage, user } from '@/lib/testing/fixtures';
import { ThreadView } from './thread-view';

const api = vi.hoisted(() => ({
  listMessages: vi.fn<(conversationId: number, cursor?: string | null) => Promise<ConversationThreadPage>>(),
  listMessagesAround: vi.fn<(conversationId: number, messageId: number) => Promise<ConversationThreadPage>>(),
  listConversations: vi.fn(),
}));
const people = vi.hoisted(() => ({ getProfile: vi.fn<(id: number) => Promise<Profile>>(), searchUsers: vi.fn() }));
vi.mock('@/lib/api/conversations', () => api);
vi.mock('@/lib/api/users', () => people);
/** Ada's profile: it names her conversation with ME, which the thread is read by. */
const ada = (fields: Partial<Profile> = {}): Profile => ({
  ...user(2, { username: 'Ada' }), followers_count: 3, following_count: 1, blocked: false, can_message: true, conversation_id: conversationIdOf(2), ...fields,
});
vi.mock('@/lib/api/uploads', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/api/uploads')>()),
  uploadFile: vi.fn(async () => ({
    id: 'up1',
    name: 'cat.png',
    mime_type: 'image/png',
    size: 3,
    width: 40,
    height: 30,
    url: '/api/uploads/up1/cat.png',
  })),
}));
vi.mock('@/lib/socket/socket-service', async (importOriginal) =>
  (await import('@/lib/socket/testing/fake-service')).fakeSocketServiceModule(await importOriginal()),
);

interface FakeVirtuosoProps<T, C> {
  data: T[];
  context: C;
  firstItemIndex: number;
  itemContent: (index: number, item: T, context: C) => ReactNode;
  computeItemKey: (index: number, item: T) => string;
  components?: { Header?: ComponentType<{ context: C }> };
  initialTopMostItemIndex?: { index: number; align: string };
  followOutput?: false | ((isAtBottom: boolean) => false | 'auto' | 'smooth');
  atBottomStateChange?: (atBottom: boolean) => void;
}
/** What the list was last given, and how many lists were mounted (a new one opens at its initial index). */
const virtuoso = vi.hoisted(() => ({
  mounts: 0,
  props: null as null | {
    initialTopMostItemIndex?: { index: number; align: string };
    followOutput?: false | ((isAtBottom: boolean) => unknown);
    atBottomStateChange?: (atBottom: boolean) => void;
  },
}));
/** How the list would follow a message added at its end: `false` given for followOutput follows nothing. */
const follow = (isAtBottom: boolean) => {
  const given = virtuoso.props?.followOutput;
  return typeof given === 'function' ? given(isAtBottom) : given;
};
vi.mock('react-virtuoso', async () => {
  const { useState } = await import('react');
  return { Virtuoso: function FakeVirtuoso<T, C>(props: FakeVirtuosoProps<T, C>) {
    const { data, context, firstItemIndex, itemContent, computeItemKey, components } = props;
    useState(() => (virtuoso.mounts += 1));
    virtuoso.props = props;
    const Header = components?.Header;
    return (
      <div data-testid="virtuoso" data-first-item-index={firstItemIndex}>
        {Header ? <Header context={context} /> : null}
        {data.map((item, index) => (
          <div key={computeItemKey(firstItemIndex + index, item)}>{itemContent(firstItemIndex + index, item, context)}</div>
        ))}
      </div>
    );
  } };
});

let socket: FakeSocket;
/** The account cursor the list is read at (item seq 0); catch-up finds that nothing moved since. */
const LIST_CURSOR = '0.1.0.0';


/** The server answers `send` with `answer`, and everything else as the quiet server does. */
function answerSend(answer: () => Promise<unknown>): void {
  socket.ackResponder = (event, payload) => (event === 'send' ? answer() : defaultAck(event, payload));
}

async function openThread() {
  render(<ThreadView peerId={2} />);
  await screen.findByText('message 2');
}

const firstItemIndex = () => Number(screen.getByTestId('virtuoso').dataset.firstItemIndex);

describe('ThreadView', () => {
  beforeEach(async () => {
    resetFakeSocketService();
    api.listMessages.mockReset();
    api.listMessages.mockResolvedValue(threadPage([conversationMessage(2), conversationMessage(1)]));
    api.listConversations.mockResolvedValue({ results: [], next_cursor: null, account_cursor: LIST_CURSOR });
    people.getProfile.mockReset();
    people.getProfile.mockResolvedValue(ada());
    publishUser({ id: ME, username: 'Me', email: null, avatar: null, language: 'en', is_active: true, message_policy: 'everyone', show_presence: true, read_receipts: true, notification_preview: 'text', notification_sound: true });
    startMessagingSession(ME, { storage: createMemoryOutboxStorage() });
    socket = connectFakeSocket(ME);
    socket.ackResponder = defaultAck;
    await vi.waitFor(() => expect(socketService.isReady()).toBe(true));
    await initI18n('en');
  });

  /** The outbox stores a message before it goes out: wait for the server to see it. */
  async function sentPayload(index = 0): Promise<SendPayload> {
    await vi.waitFor(() => expect(socket.sentEvents('send').length).toBeGreaterThan(index));
    return socket.sentEvents('send')[index]?.[1] as SendPayload;
  }
  afterEach(() => {
    cleanup();
    stopMessagingSession();
  });

  it('shows a sent message at once as "Sending…", then "Sent" when the server acknowledges it', async () => {
    const ack = deferred<unknown>();
    answerSend(() => ack.promise);
    await openThread();

    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Hello <b>Ada</b>{Enter}');
    expect(screen.getByText('Hello <b>Ada</b>')).toBeTruthy();
    expect(screen.getByText('Sending…')).toBeTruthy();

    const sent = await sentPayload();
    await act(async () => {
      ack.resolve({ data: conversationMessage(9, { sender_id: ME, peer: 2, seq: 3, version: 3, client_id: sent.client_id, text: sent.text }) });
      await settle();
    });
    expect(screen.queryByText('Sending…')).toBeNull();
    expect(screen.getByText('Sent')).toBeTruthy();
  });

  it('sends an uploaded file without text, and shows the image at once', async () => {
    answerSend(() => new Promise(() => undefined));
    await openThread();

    await userEvent.upload(screen.getByLabelText('Choose a file to attach'), new File(['png'], 'cat.png', { type: 'image/png' }));
    await screen.findByText('cat.png is ready to send.');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));

    const sent = await sentPayload();
    expect(sent).toMatchObject({ recipient_id: 2, text: '', attachment_id: 'up1' });
    const image = screen.getByRole('img', { name: 'Image: cat.png' });
    expect(image.getAttribute('width')).toBe('40');
    expect(screen.getByText('Sending…')).toBeTruthy();
  });

  it('a message refused for good says why, is announced, offers Remove and no Retry', async () => {
    answerSend(async () => ({ error: { non_field_errors: [SEND_REFUSALS.recipient_gone] } }));
    await openThread();

    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'are you there?{Enter}');
    // In the message itself, and in the thread's live region for screen readers.
    expect(await screen.findByText('Not sent: this account no longer exists.', { selector: 'span' })).toBeTruthy();
    expect(screen.getAllByRole('status').some((status) => status.textContent === 'Not sent: this account no longer exists.')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Remove this unsent message' }));
    expect(screen.queryByText('are you there?')).toBeNull();
    expect(socket.sentEvents('send')).toHaveLength(1);
  });

  it('puts older pages in front without moving the list: firstItemIndex goes down by their count', async () => {
    api.listMessages
      .mockResolvedValueOnce(threadPage([conversationMessage(4), conversationMessage(3)], { next_cursor: 'older' }))
      .mockResolvedValueOnce(threadPage([conversationMessage(2), conversationMessage(1)]));
    render(<ThreadView peerId={2} />);
    await screen.findByText('message 4');
    const before = firstItemIndex();

    await userEvent.click(screen.getByRole('button', { name: 'Load older messages' }));
    await screen.findByText('message 1');
    // Both pages are read by the conversation, not by the person.
    expect(api.listMessages.mock.calls).toEqual([[conversationIdOf(2)], [conversationIdOf(2), 'older']]);
    expect(firstItemIndex()).toBe(before - 2);
    expect(screen.getByText(/This is the beginning of your conversation with Ada/)).toBeTruthy();
  });

  it('a quote to a message beyond those held starts the list over at it; the window’s newer pages leave it there; Jump to latest opens at the newest', async () => {
    api.listMessages.mockResolvedValueOnce(threadPage([conversationMessage(61), conversationMessage(60)], { next_cursor: 'older' }));
    render(<ThreadView peerId={2} />);
    await screen.findByText('message 61');
    const mounted = virtuoso.mounts;

    api.listMessagesAround.mockResolvedValueOnce(threadPage([conversationMessage(11), conversationMessage(10), conversationMessage(9)], { newer_cursor: 'newer-than-11', last_seq: 61 }));
    await act(async () => {
      await useThreadStore.getState().showMessage(2, 10);
    });
    expect(api.listMessagesAround).toHaveBeenLastCalledWith(conversationIdOf(2), 10);
    expect(virtuoso.mounts).toBe(mounted + 1);
    expect(virtuoso.props?.initialTopMostItemIndex).toEqual({ index: 1, align: 'center' });
    // Marked, and said in the conversation's status region for those who cannot see the mark.
    expect(screen.getByText('message 10').closest('[data-message-id]')?.getAttribute('data-highlighted')).toBe('true');
    expect(screen.getAllByRole('status').map((region) => region.textContent)).toContain('Message shown: Ada: message 10');

    // The window's last newer page joins the newest messages: no jump to the bottom.
    api.listMessages.mockResolvedValueOnce(threadPage([conversationMessage(61), conversationMessage(60), conversationMessage(12)]));
    await act(async () => {
      await useThreadStore.getState().loadNewer(2);
    });
    expect(screen.getByText('message 61')).toBeTruthy();
    expect(follow(true)).toBe(false);
    // A live message after it is followed again, as usual, once the reader is at the newest.
    act(() => virtuoso.props?.atBottomStateChange?.(true));
    act(() => useThreadStore.getState().receiveMessage(2, message(62)));
    expect(follow(true)).toBe('smooth');

    // Another window, then Jump to latest: the list opens at the newest message, though some are unread.
    api.listMessagesAround.mockResolvedValueOnce(threadPage([conversationMessage(5), conversationMessage(4)], { newer_cursor: 'newer-than-5', last_seq: 62 }));
    await act(async () => {
      await useThreadStore.getState().showMessage(2, 4);
    });
    expect(virtuoso.props?.initialTopMostItemIndex).toEqual({ index: 0, align: 'center' });
    api.listMessages.mockResolvedValueOnce(threadPage([conversationMessage(62), conversationMessage(61), conversationMessage(60)], { next_cursor: 'older' }));
    await act(async () => {
      await useThreadStore.getState().jumpToLatest(2);
    });
    expect(virtuoso.props?.initialTopMostItemIndex).toEqual({ index: 2, align: 'end' });
  });

  it('opened at the first unread message, the list follows nothing until the newest has been on screen or the user sends', async () => {
    // Given a followOutput, Virtuoso also pins the list to the bottom as it grows, and as the list
    // opens it can pass for being at the bottom: that carried the reader past every unread message.
    answerSend(() => new Promise(() => undefined));
    api.listMessages.mockResolvedValueOnce(threadPage([conversationMessage(3), conversationMessage(2), conversationMessage(1)]));
    await openThread();
    expect(virtuoso.props?.initialTopMostItemIndex).toEqual({ index: 0, align: 'start' });
    expect(virtuoso.props?.followOutput).toBe(false);

    // The newest on screen: the list follows what comes, as usual.
    act(() => virtuoso.props?.atBottomStateChange?.(true));
    act(() => useThreadStore.getState().receiveMessage(2, message(4)));
    expect(follow(true)).toBe('smooth');
  });

  it('opened at the first unread message, the user’s own message is followed at once', async () => {
    answerSend(() => new Promise(() => undefined));
    await openThread();
    expect(virtuoso.props?.followOutput).toBe(false);

    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'on my way{Enter}');
    expect(follow(false)).toBe('auto');
  });

  it('opened at the newest message, the list follows from the start', async () => {
    // The user read up to its newest message.
    api.listMessages.mockResolvedValueOnce(threadPage([conversationMessage(2), conversationMessage(1)], { read_seq: 2 }));
    await openThread();
    expect(virtuoso.props?.initialTopMostItemIndex).toEqual({ index: 1, align: 'end' });
    act(() => useThreadStore.getState().receiveMessage(2, message(3)));
    expect(follow(true)).toBe('smooth');
  });

  it('names the person from their profile and offers to follow them', async () => {
    await openThread();
    expect(await screen.findByRole('heading', { name: 'Ada' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Follow Ada' })).toBeTruthy();
  });

  it('says so instead of offering a message box when the server already knows a message would be refused', async () => {
    people.getProfile.mockResolvedValue(ada({ can_message: false }));
    await openThread();
    expect(await screen.findByText("You can't message this person.")).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
  });

  it('tells the blocker how to write again, and shows a deleted account’s removed attachments', async () => {
    people.getProfile.mockResolvedValue(ada({ blocked: true, can_message: false }));
    api.listMessages.mockResolvedValue(threadPage([conversationMessage(2, { text: '', attachment_removed: true }), conversationMessage(1)]));
    render(<ThreadView peerId={2} />);
    expect(await screen.findByText('You blocked Ada. Unblock them to send a message.')).toBeTruthy();
    expect(screen.getByText('Attachment removed')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
  });
});
