import { describe, expect, it } from 'vitest';
import { en } from '@/lib/i18n/locales/en';
import { translate } from '@/lib/i18n/translator';
import { conversationPath } from '@/lib/routing/conversation-route';
import { conversationUrl, notificationContent, truncateText, type NotificationInput } from './notification-content';

const t: NotificationInput['translate'] = (key, values) => translate(en, 'en', en, 'en', key, values);
const message = { id: 41, sender_id: 7, text: 'See you at 5?', attachment: null };
const sender = { username: 'Grace', avatar: 'https://cdn.example/grace.png' };

describe('notificationContent', () => {
  it('text: the sender, their avatar and the text; one notification per conversation', () => {
    expect(notificationContent({ message, sender, preview: 'text', sound: true, translate: t })).toEqual({
      title: 'Grace',
      body: 'See you at 5?',
      icon: 'https://cdn.example/grace.png',
      tag: 'conversation-7',
      url: '/main/7',
      message_id: 41,
      peer_id: 7,
      silent: false,
      preview: 'text',
    });
  });

  it('sender: who wrote, never what', () => {
    const content = notificationContent({ message, sender, preview: 'sender', sound: false, translate: t });
    expect(content).toMatchObject({ title: 'Grace', body: 'New message', silent: true, peer_id: 7 });
    expect(JSON.stringify(content)).not.toContain('See you');
  });

  it('none: nothing about the sender or the message, one notification for all conversations', () => {
    const content = notificationContent({ message, sender, preview: 'none', sound: true, translate: t });
    expect(content).toEqual({
      title: 'Parley',
      body: 'You have a new message',
      icon: '/icons/icon-192.png',
      tag: 'parley-message',
      url: '/main',
      message_id: 41,
      silent: false,
      preview: 'none',
    });
  });

  it('an attachment without text, an unknown sender, an avatar that is not https', () => {
    const content = notificationContent({
      message: { ...message, text: '  ', attachment: { name: 'plan.pdf' } },
      sender: { username: null, avatar: 'http://insecure.example/a.png' },
      preview: 'text',
      sound: true,
      translate: t,
    });
    expect(content).toMatchObject({ title: 'Unknown user', body: 'Sent an attachment: plan.pdf', icon: '/icons/icon-192.png' });
  });

  it('cuts long text on a code point, with an ellipsis', () => {
    expect(truncateText('a'.repeat(300))).toHaveLength(180);
    expect(truncateText('😀'.repeat(200), 10)).toBe(`${'😀'.repeat(9)}…`);
    expect(truncateText(' two\n lines ')).toBe('two lines');
  });
});

describe('conversationUrl', () => {
  it('is the conversation\'s own address, the one the app opens it at', () => {
    expect(conversationUrl(42)).toBe(conversationPath(42));
  });
});
