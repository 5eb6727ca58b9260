// The messaging session's notifications: the tab reports whether it is in view (the server pushes
// only to people with no tab in view), a message that arrives while this tab is hidden becomes a
// desktop notification (through the service worker, once for all tabs), a conversation read
// anywhere closes its notification, and a notification's click opens its conversation.
import { getProfile } from '@/lib/api/users';
import type { ConversationMessage } from '@/lib/contract';
import { currentTranslator } from '@/lib/i18n/i18n';
import {
  closeNotificationsTagged,
  playNotificationSound,
  reportVisibilityToWorker,
  showThroughWorker,
  startDesktopNotifications,
  stopDesktopNotifications,
} from '@/lib/notifications/desktop-notifications';
import type { DevicePreferenceStorage } from '@/lib/notifications/device-preferences';
import { conversationTag, notificationContent } from '@/lib/notifications/notification-content';
import { socketService } from '@/lib/socket/socket-service';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { selectNotificationsOn, useNotificationStore } from '@/lib/stores/notification-store';
import { peerOf } from '@/lib/stores/direct-conversations';
import { useSessionStore } from '@/lib/stores/session-store';
import { openConversation } from '../routing/conversation-route';
import { isTabVisible } from './read-marking';

/** Decides and shows the notification for an incoming message; resolves whether it was shown. */
async function notifyIncoming(message: ConversationMessage): Promise<boolean> {
  // In view, the app shows it (list, badge, title); another tab in view is the worker's call.
  if (isTabVisible() || !selectNotificationsOn(useNotificationStore.getState())) return false;
  const peerId = message.sender_id;
  const row = useConversationsStore.getState().conversations.find((conversation) => conversation.user.id === peerId);
  // Muted on any device (safety_changed keeps the row current): it keeps its badge, never notifies.
  if (row?.muted) return false;
  const user = useSessionStore.getState().user;
  const preview = user?.notification_preview ?? 'text';
  let sender = { username: row?.user.username ?? null, avatar: row?.user.avatar ?? null };
  if (preview !== 'none' && !sender.username) sender = await getProfile(peerId).catch(() => sender);
  const translate = currentTranslator();
  // Silent: this tab plays the app's own sound instead, once the worker says it showed it.
  const content = notificationContent({ message, sender, preview, sound: false, translate });
  const shown = await showThroughWorker(content);
  if (shown && user?.notification_sound !== false) playNotificationSound();
  return shown;
}

function onWorkerMessage(event: MessageEvent<{ type?: string; peer_id?: unknown }>): void {
  if (event.data?.type === 'open-conversation' && typeof event.data.peer_id === 'number') openConversation(event.data.peer_id);
}

export interface NotificationsOptions {
  storage?: DevicePreferenceStorage;
}

/** Starts the session's notifications for `userId`; returns the function that stops them. */
export function wireNotifications(userId: number, { storage }: NotificationsOptions = {}): () => void {
  const reportVisibility = () => {
    const visible = isTabVisible();
    if (socketService.isReady()) void socketService.request('visibility', { visible });
    if (useNotificationStore.getState().permission !== 'unsupported') reportVisibilityToWorker(visible);
  };
  const stops = [
    socketService.on('ready', reportVisibility),
    socketService.on('message', (message) => void notifyIncoming(message)),
    // Read on one of the user's devices: its notifications go.
    socketService.on('account_item', (item) => {
      const peerId = item.kind === 'read' ? peerOf(item.conversation_id) : undefined;
      if (peerId !== undefined) void closeNotificationsTagged(conversationTag(peerId)).catch(() => undefined);
    }),
  ];
  document.addEventListener('visibilitychange', reportVisibility);
  navigator.serviceWorker?.addEventListener('message', onWorkerMessage);
  reportVisibility();
  void startDesktopNotifications(userId, storage).then(reportVisibility);
  return () => {
    for (const stop of stops) stop();
    document.removeEventListener('visibilitychange', reportVisibility);
    navigator.serviceWorker?.removeEventListener('message', onWorkerMessage);
    stopDesktopNotifications();
  };
}
