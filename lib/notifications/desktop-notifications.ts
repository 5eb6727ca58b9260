// Desktop notifications on this browser: the permission, the person's choice for this device, the
// service worker that shows every notification, and this browser's Web Push subscription. Started
// and stopped with the messaging session (lib/realtime/notifications.ts); the prompt and the
// settings call enable, disable and dismissPrompt.
import { fetchPushPublicKey, registerPushSubscription, removePushSubscription } from '@/lib/api/push';
import type { NotificationContent, PushSubscriptionRequest } from '@/lib/contract';
import { useNotificationStore, type NotificationPermissionState } from '@/lib/stores/notification-store';
import { appDevicePreferences, type DevicePreferenceStorage, type DevicePreferences } from './device-preferences';
import { forgetNotificationState, notificationsSupported as supported, permissionNow, readNotificationState } from './notification-state';

const SERVICE_WORKER_URL = '/sw.js';
const NOTIFICATION_SOUND_URL = '/sounds/notification.wav';

let current: { userId: number; storage: DevicePreferenceStorage; preferences: DevicePreferences } | null = null;

/** The service worker, registered once per page (it also keeps the app shell for offline starts). */
let registration: Promise<ServiceWorkerRegistration> | null = null;
function registerServiceWorker(): Promise<ServiceWorkerRegistration> | null {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  registration ??= navigator.serviceWorker
    .register(SERVICE_WORKER_URL, { scope: '/' })
    .then(() => navigator.serviceWorker.ready)
    .then((ready) => {
      // What this page loaded before the worker was there (its texts, chunks loaded at once), for offline starts.
      const loaded = performance.getEntriesByType('resource').map((entry) => entry.name);
      ready.active?.postMessage({ type: 'cache-assets', urls: loaded.filter((url) => url.includes('/_next/static/')) });
      return ready;
    });
  return registration;
}

/** Reads this browser's state for `userId` into the store and, when notifications are on, registers for Web Push. */
export async function startDesktopNotifications(userId: number, storage?: DevicePreferenceStorage): Promise<void> {
  const chosen = storage ?? appDevicePreferences();
  // Read already when the person became known (session-start.ts), in the store since.
  const session = { userId, storage: chosen, preferences: await readNotificationState(userId, chosen) };
  current = session;
  if (supported()) void registerServiceWorker()?.catch((error: unknown) => console.warn('Service worker not registered:', error));
  if (permissionNow() === 'granted' && !session.preferences.off) await syncPushSubscription();
}

/** Sign-out: this browser stops receiving pushes (the server removed its row already) and forgets the state. */
export function stopDesktopNotifications(): void {
  current = null;
  forgetNotificationState();
  useNotificationStore.getState().reset();
  void currentPushSubscription()
    .then((subscription) => subscription?.unsubscribe())
    .catch(() => undefined);
}

async function savePreferences(changes: Partial<DevicePreferences>): Promise<void> {
  if (!current) return;
  const session = current;
  session.preferences = { ...session.preferences, ...changes };
  // Shown once stored (a few ms): a reload right after "Not now" must not bring the prompt back.
  await session.storage.save(session.userId, changes).catch(() => undefined);
  if (current === session) useNotificationStore.getState().update(changes);
}

/** The prompt's "Turn on" and the settings' switch: asks the browser (a click is needed for that), then registers. */
export async function enableDesktopNotifications(): Promise<NotificationPermissionState> {
  if (!supported()) return 'unsupported';
  const store = useNotificationStore.getState();
  store.update({ busy: true });
  try {
    const permission = Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
    store.update({ permission });
    if (permission === 'granted') {
      await savePreferences({ off: false });
      await syncPushSubscription();
    }
    return permission;
  } finally {
    store.update({ busy: false });
  }
}

/** Switched off on this browser: no notification shows here, and pushes to it stop. */
export async function disableDesktopNotifications(): Promise<void> {
  const store = useNotificationStore.getState();
  store.update({ busy: true });
  try {
    await savePreferences({ off: true });
    const subscription = await currentPushSubscription();
    if (subscription) {
      await removePushSubscription(subscription.endpoint).catch(() => undefined);
      await subscription.unsubscribe().catch(() => undefined);
    }
  } finally {
    store.update({ busy: false });
  }
}

export async function dismissNotificationPrompt(): Promise<void> {
  await savePreferences({ promptDismissed: true });
}

async function currentPushSubscription(): Promise<PushSubscription | null> {
  const ready = registration;
  if (!ready || typeof PushManager === 'undefined') return null;
  return (await ready).pushManager.getSubscription();
}

function sameKey(subscription: PushSubscription, publicKey: string): boolean {
  const key = subscription.options?.applicationServerKey;
  if (!key) return false;
  const bytes = new Uint8Array(key);
  const expected = atob(publicKey.replace(/-/g, '+').replace(/_/g, '/'));
  return bytes.length === expected.length && bytes.every((byte, i) => byte === expected.charCodeAt(i));
}

/**
 * Web Push for this browser: subscribed with the server's key (again if the key changed) and the
 * subscription registered, on every start too (an endpoint the browser renewed is registered anew).
 * Without it notifications still show while a tab is open; a failure is logged, never shown.
 */
async function syncPushSubscription(): Promise<void> {
  const ready = registerServiceWorker();
  if (!ready || typeof PushManager === 'undefined') return;
  try {
    const publicKey = await fetchPushPublicKey();
    if (!publicKey) return;
    const { pushManager } = await ready;
    let subscription = await pushManager.getSubscription();
    if (subscription && !sameKey(subscription, publicKey)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ??= await pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey });
    await registerPushSubscription(subscription.toJSON() as PushSubscriptionRequest);
  } catch (error) {
    console.warn('Web Push unavailable on this browser:', error);
  }
}

/**
 * Hands a notification to the service worker, which shows it unless a tab is in view or it showed
 * this message already (another tab, or the push). Resolves whether it was shown by this call.
 */
export async function showThroughWorker(content: NotificationContent): Promise<boolean> {
  const ready = registerServiceWorker();
  if (!ready) return false;
  const worker = (await ready).active;
  if (!worker) return false;
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 5_000);
    const onAnswer = (event: MessageEvent<{ type?: string; message_id?: number; shown?: boolean }>) => {
      if (event.data?.type !== 'notified' || event.data.message_id !== content.message_id) return;
      clearTimeout(timer);
      navigator.serviceWorker.removeEventListener('message', onAnswer);
      resolve(Boolean(event.data.shown));
    };
    navigator.serviceWorker.addEventListener('message', onAnswer);
    // Only a hidden tab hands a notification over; saying so again covers a worker restarted
    // since this tab's last visibility report.
    worker.postMessage({ type: 'notify', content, visible: document.visibilityState === 'visible' });
  });
}

/** Tells the service worker whether this tab is in view (as the server is told): it shows nothing while one is. */
export function reportVisibilityToWorker(visible: boolean): void {
  void registerServiceWorker()
    ?.then((ready) => ready.active?.postMessage({ type: 'visibility', visible }))
    .catch(() => undefined);
}

/** The conversation was read somewhere: its notification is old news. */
export async function closeNotificationsTagged(tag: string): Promise<void> {
  const ready = registration;
  if (!ready) return;
  for (const notification of await (await ready).getNotifications({ tag })) notification.close();
}

export function playNotificationSound(): void {
  // A hidden tab may play sound once the page has been interacted with; otherwise the browser refuses, quietly.
  void new Audio(NOTIFICATION_SOUND_URL).play().catch(() => undefined);
}
