import { beforeEach, describe, expect, it } from 'vitest';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { useCounterStore } from '@/lib/stores/counter-store';
import { conversation, message } from '@/lib/testing/fixtures';
import { conversationTitle, syncUnreadTitle, unreadTitle } from './unread-title';

describe('unread title', () => {
  beforeEach(() => {
    document.title = 'before';
  });

  it('puts the count in front of the title only when there is something unread', () => {
    expect(unreadTitle(3, 'Parley')).toBe('(3) Parley');
    expect(unreadTitle(0, 'Parley')).toBe('Parley');
    expect(unreadTitle(1)).toBe('(1) Parley');
  });

  it('keeps document.title in step with the unread count until stopped', () => {
    useCounterStore.getState().setUnread(2);
    const stop = syncUnreadTitle('Parley');
    expect(document.title).toBe('(2) Parley');
    useCounterStore.getState().incrementUnread();
    expect(document.title).toBe('(3) Parley');
    useCounterStore.getState().setUnread(0);
    expect(document.title).toBe('Parley');
    useCounterStore.getState().setUnread(5);
    stop();
    expect(document.title).toBe('Parley');
    useCounterStore.getState().setUnread(6);
    expect(document.title).toBe('Parley');
  });

  it('puts the count back when the page’s own title replaces it (a client navigation)', async () => {
    useCounterStore.getState().setUnread(4);
    const stop = syncUnreadTitle('Parley');
    expect(document.title).toBe('(4) Parley');
    // What the router does when the page changes: its <title> element instead of ours.
    document.head.querySelectorAll('title').forEach((element) => element.remove());
    const title = document.createElement('title');
    title.textContent = 'Parley';
    document.head.append(title);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(document.title).toBe('(4) Parley');
    stop();
    title.textContent = 'Other';
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(document.title).toBe('Other');
  });

  it('names the open conversation after the count', () => {
    useCounterStore.getState().setUnread(3);
    const stop = syncUnreadTitle(conversationTitle('Ana Núñez'));
    expect(document.title).toBe('(3) Ana Núñez · Parley');
    stop();
    expect(conversationTitle(null)).toBe('Parley');
  });

  it('leaves muted conversations out of the count, live as they are muted and read', () => {
    useConversationsStore.setState({ conversations: [conversation(2, message(1), 2, true), conversation(3, message(2, { sender_id: 3 }), 1)] });
    useCounterStore.getState().setUnread(3);
    const stop = syncUnreadTitle('Parley');
    expect(document.title).toBe('(1) Parley');
    useConversationsStore.setState({ conversations: [conversation(2, message(1), 2, false), conversation(3, message(2, { sender_id: 3 }), 1)] });
    expect(document.title).toBe('(3) Parley');
    useConversationsStore.setState({ conversations: [conversation(2, message(1), 2, true), conversation(3, message(2, { sender_id: 3 }), 0)] });
    useCounterStore.getState().setUnread(2);
    expect(document.title).toBe('Parley');
    stop();
  });
});
