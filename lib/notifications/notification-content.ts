// The notification for one incoming message, cut to what the recipient's preview setting allows.
// One function for both paths: the server builds a push payload with it (in the recipient's
// language), an open tab builds what it hands its service worker (in the UI's language), so a
// notification reads the same however it arrived.
import { NOTIFICATION_TEXT_MAX, type NotificationContent, type NotificationPreview } from '../contract';

/** The app's own icon, for notifications that must not show who wrote. */
const APP_NOTIFICATION_ICON = '/icons/icon-192.png';
/** With preview 'none' every message shares one notification: one per conversation would tell how many people wrote. */
const HIDDEN_PREVIEW_TAG = 'parley-message';

type NotificationKey =
  | 'common.appName'
  | 'common.unknownUser'
  | 'notifications.newMessage'
  | 'notifications.hiddenMessage'
  | 'notifications.attachment';

export interface NotificationInput {
  message: { id: number; sender_id: number; text: string; attachment: { name: string } | null };
  sender: { username: string | null; avatar: string | null };
  preview: NotificationPreview;
  sound: boolean;
  translate: (key: NotificationKey, values?: Record<string, unknown>) => string;
}

export function conversationTag(peerId: number): string {
  return `conversation-${peerId}`;
}

/**
 * The conversation's own address, as lib/routing/conversation-route.ts spells it (its test checks
 * they agree); written out here because the server builds notifications too, without the client's
 * router and stores.
 */
export function conversationUrl(peerId: number): string {
  return `/main/${peerId}`;
}

/** At most `max` characters (whole code points), with an ellipsis when cut. */
export function truncateText(text: string, max = NOTIFICATION_TEXT_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const points = [...flat];
  return points.length <= max ? flat : `${points.slice(0, max - 1).join('').trimEnd()}…`;
}

/** Only an https: avatar goes into a notification (the browser fetches it without our CSP). */
function iconOf(avatar: string | null): string {
  return avatar && /^https:\/\//i.test(avatar) ? avatar : APP_NOTIFICATION_ICON;
}

export function notificationContent({ message, sender, preview, sound, translate }: NotificationInput): NotificationContent {
  const common = { message_id: message.id, silent: !sound, preview };
  if (preview === 'none') {
    return {
      ...common,
      title: translate('common.appName'),
      body: translate('notifications.hiddenMessage'),
      icon: APP_NOTIFICATION_ICON,
      tag: HIDDEN_PREVIEW_TAG,
      url: '/main',
    };
  }
  const peerId = message.sender_id;
  const title = truncateText(sender.username || translate('common.unknownUser'), 100);
  let body = translate('notifications.newMessage');
  if (preview === 'text') {
    const text = truncateText(message.text);
    if (text) body = text;
    else if (message.attachment) body = translate('notifications.attachment', { name: truncateText(message.attachment.name, 100) });
  }
  return { ...common, title, body, icon: iconOf(sender.avatar), tag: conversationTag(peerId), url: conversationUrl(peerId), peer_id: peerId };
}
