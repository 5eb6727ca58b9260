// Web Push and desktop notifications: the HTTP payloads of /api/push and the notification a
// service worker shows, whether a push carried it or an open tab handed it over.
import type { NotificationPreview } from './constants';

/** GET /api/push/public-key: null when this server sends no Web Push. */
export interface PushPublicKey {
  public_key: string | null;
}

/** POST /api/push/subscriptions: PushSubscription.toJSON() of the browser, as the Push API gives it. */
export interface PushSubscriptionRequest {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

/**
 * A notification ready to show, already cut to what the person's preview setting allows: the push
 * payload (encrypted to the browser) and what a tab hands its service worker are this same shape.
 */
export interface NotificationContent {
  title: string;
  body: string;
  /** The sender's avatar when the preview shows the sender; the app's icon otherwise. */
  icon: string;
  /** One notification per conversation (or one in all with preview 'none'): a newer one replaces it. */
  tag: string;
  /** Opened on click: the conversation, or /main when the preview hides who wrote. */
  url: string;
  /** The message it is about: a service worker shows each message once, however it heard of it. */
  message_id: number;
  /** The person who wrote; absent with preview 'none'. */
  peer_id?: number;
  /** True when the person switched notification sounds off. */
  silent: boolean;
  preview: NotificationPreview;
}
