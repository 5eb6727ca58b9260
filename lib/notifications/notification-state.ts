// This browser's notification state for the signed-in person (the permission, their choices for
// this device), read into the store as soon as the person is known: the main area waits for it
// (briefly) so the notification prompt never pushes the list down, and the messaging session,
// which does the rest (desktop-notifications.ts), comes only after the first screen.
import { useNotificationStore, type NotificationPermissionState } from '@/lib/stores/notification-store';
import { appDevicePreferences, DEFAULT_DEVICE_PREFERENCES, type DevicePreferenceStorage, type DevicePreferences } from './device-preferences';

export function notificationsSupported(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window && 'serviceWorker' in navigator;
}

export function permissionNow(): NotificationPermissionState {
  return notificationsSupported() ? Notification.permission : 'unsupported';
}

// The last read, by person and storage: the session's start takes it rather than reading again.
let last: { userId: number; storage: DevicePreferenceStorage; read: Promise<DevicePreferences> } | null = null;

/** Reads `userId`'s preferences on this browser into the store (`loaded`), once; resolves to them. */
export function readNotificationState(userId: number, storage: DevicePreferenceStorage = appDevicePreferences()): Promise<DevicePreferences> {
  // The same person's read, still in the store (a sign-out, or anything that reset it, reads again).
  if (last?.userId === userId && last.storage === storage && useNotificationStore.getState().loaded) return last.read;
  const read = storage
    .load(userId)
    .catch(() => DEFAULT_DEVICE_PREFERENCES)
    .then((preferences) => {
      if (last?.read === read) useNotificationStore.getState().update({ permission: permissionNow(), off: preferences.off, promptDismissed: preferences.promptDismissed, loaded: true });
      return preferences;
    });
  last = { userId, storage, read };
  return read;
}

/** Sign-out: the next person's state is read afresh. */
export function forgetNotificationState(): void {
  last = null;
}
