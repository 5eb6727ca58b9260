// Web Push for stored messages, off the send path: `send` acks first, then hands the message here,
// and a bounded pool of workers decides and sends in the background. A slow or dead push service
// can delay notifications, never a message.
import type { FastifyBaseLogger } from 'fastify';
import webPush from 'web-push';
import type { ConversationMessage } from '../../lib/contract';
import { notificationContent } from '../../lib/notifications/notification-content';
import type { SessionRules } from '../db/session-rules';
import type { Db } from '../db/engine/open-database';
import { deleteExpiredPushSubscriptions } from '../db/push-subscriptions';
import { findPushTargets } from '../db/push-targets';
import type { PushSubscriptionRow } from '../db/schema';
import { notificationTranslator } from './notification-language';
import type { VapidKeys } from './push-settings';
import type { VisibilityTracker } from './visibility';

export interface PushNotifier {
  /** Queues a push to `recipientId` for a newly stored message; returns at once. */
  messageStored(message: ConversationMessage, recipientId: number): void;
  /** Waits for the jobs under way (queued ones are dropped), at most `timeoutMs`. */
  close(timeoutMs?: number): Promise<void>;
}

/** A push to decide and send: one message, for one recipient. */
interface PushJob {
  message: ConversationMessage;
  recipientId: number;
}

export interface PushNotifierOptions {
  db: Db;
  vapid: VapidKeys;
  visibility: VisibilityTracker;
  /** Session lifetimes: a browser registered by an expired session gets no push. */
  sessionRules: Pick<SessionRules, 'idleMs' | 'maxMs'>;
  log: FastifyBaseLogger;
  /** Messages whose push is being decided or sent at once. */
  concurrency?: number;
  /** Messages waiting for a worker; past it new ones get no push (and a log line). */
  maxQueue?: number;
  /** One request to a push service, answer included. */
  timeoutMs?: number;
}

/**
 * Defaults: 16 messages at once keeps a node's push traffic to a few dozen open requests; 10,000
 * waiting is a couple of seconds of a peak, bounded memory (a message payload each) if a push
 * service hangs; 10 s per request is well past a healthy push service's answer (tens of ms).
 */
const DEFAULT_CONCURRENCY = 16;
const DEFAULT_MAX_QUEUE = 10_000;
const DEFAULT_TIMEOUT_MS = 10_000;
/**
 * A day: a phone off for the night still gets the night's messages in the morning; later than that,
 * a notification is old news (the app's unread count still has them).
 */
const PUSH_TTL_SECONDS = 24 * 60 * 60;
/** Status codes with which a push service says the subscription is gone for good. */
const GONE = new Set([404, 410]);

export function createPushNotifier({
  db,
  vapid,
  visibility,
  sessionRules,
  log,
  concurrency = DEFAULT_CONCURRENCY,
  maxQueue = DEFAULT_MAX_QUEUE,
  timeoutMs = DEFAULT_TIMEOUT_MS,
}: PushNotifierOptions): PushNotifier {
  const queue: PushJob[] = [];
  const running = new Set<Promise<void>>();
  let closed = false;
  let droppedSinceLog = 0;

  async function deliver({ message, recipientId }: PushJob): Promise<void> {
    // A Redis outage must not cost the push: unknown counts as not visible.
    const visible = await visibility.anyVisible(recipientId).catch((error: unknown) => {
      log.warn({ err: error }, 'push: visibility unknown, sending');
      return false;
    });
    if (visible) return;
    const targets = await findPushTargets(db, recipientId, message.sender_id, sessionRules);
    if (!targets) return;
    const content = notificationContent({
      message,
      sender: targets.sender,
      preview: targets.recipient.preview === 'sender' || targets.recipient.preview === 'none' ? targets.recipient.preview : 'text',
      sound: targets.recipient.sound,
      translate: notificationTranslator(targets.recipient.language),
    });
    const payload = JSON.stringify(content);
    // Topic: a push service holding an undelivered push of this conversation replaces it.
    const topic = content.peer_id === undefined ? 'parley' : `c${content.peer_id}`;
    const gone: string[] = [];
    await Promise.all(
      targets.subscriptions.map(async (subscription) => {
        const status = await send(subscription, payload, topic);
        if (status !== null && GONE.has(status)) gone.push(subscription.endpoint);
      }),
    );
    if (gone.length > 0) {
      await deleteExpiredPushSubscriptions(db, gone);
      log.info({ count: gone.length }, 'push: removed subscriptions the push service no longer knows');
    }
  }

  /** The push service's status, or null when it could not be reached in time. */
  async function send(subscription: PushSubscriptionRow, payload: string, topic: string): Promise<number | null> {
    // web-push encrypts the payload (RFC 8291, aes128gcm) and signs the VAPID header; the request
    // itself is ours, so it has one deadline for the whole exchange and never follows a redirect.
    const request = webPush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      payload,
      { vapidDetails: vapid, TTL: PUSH_TTL_SECONDS, urgency: 'high', topic },
    );
    try {
      const response = await fetch(request.endpoint, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        body: request.body ? new Uint8Array(request.body) : null,
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      if (!response.ok && !GONE.has(response.status)) {
        log.warn({ status: response.status, pushService: new URL(request.endpoint).host }, 'push: refused by the push service');
      }
      return response.status;
    } catch (error) {
      log.warn({ err: error, pushService: new URL(request.endpoint).host }, 'push: push service unreachable');
      return null;
    }
  }

  function pump(): void {
    while (!closed && running.size < concurrency && queue.length > 0) {
      const job = deliver(queue.shift() as PushJob)
        .catch((error: unknown) => log.error({ err: error }, 'push: failed'))
        .finally(() => {
          running.delete(job);
          pump();
        });
      running.add(job);
    }
  }

  return {
    messageStored(message, recipientId) {
      if (closed) return;
      if (queue.length >= maxQueue) {
        // Counted and logged now and then, not once per message: a flood of lines would make it worse.
        if (droppedSinceLog++ % 1_000 === 0) log.warn({ dropped: droppedSinceLog, maxQueue }, 'push: queue full, dropping pushes');
        return;
      }
      queue.push({ message, recipientId });
      pump();
    },
    async close(closeTimeoutMs = 2_000) {
      closed = true;
      queue.length = 0;
      if (running.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...running]),
        new Promise((resolve) => {
          timer = setTimeout(resolve, closeTimeoutMs);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}
