// Desktop notifications on this browser, as the prompt and the settings show them. Filled and
// changed by lib/notifications/desktop-notifications.ts; components only read it.
import { create } from 'zustand';

/** The browser's permission, or 'unsupported' (no Notification API or no service worker). */
export type NotificationPermissionState = 'default' | 'granted' | 'denied' | 'unsupported';

export interface NotificationState {
  permission: NotificationPermissionState;
  /** Switched off on this browser by the person (permission may still be granted). */
  off: boolean;
  promptDismissed: boolean;
  /** The preferences were read for the signed-in person (until then, no prompt). */
  loaded: boolean;
  /** A change is being made (asking permission, subscribing). */
  busy: boolean;
}

export interface NotificationActions {
  update: (changes: Partial<NotificationState>) => void;
  reset: () => void;
}

const initialState: NotificationState = { permission: 'unsupported', off: false, promptDismissed: false, loaded: false, busy: false };

export const useNotificationStore = create<NotificationState & NotificationActions>()((set) => ({
  ...initialState,
  update: (changes) => set(changes),
  reset: () => set(initialState),
}));

/** Notifications show on this browser: permission granted and not switched off here. */
export function selectNotificationsOn(state: NotificationState): boolean {
  return state.permission === 'granted' && !state.off;
}

/**
 * Resolves once this browser's state was read for the signed-in person, so whether the prompt
 * shows is decided; after `capMs` at the latest, so a slow storage never holds anything up.
 */
export function notificationStateRead(capMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (useNotificationStore.getState().loaded) return resolve();
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    };
    const timer = setTimeout(done, capMs);
    const unsubscribe = useNotificationStore.subscribe((state) => {
      if (state.loaded) done();
    });
  });
}

/** The prompt is offered: the browser can, has not been asked yet, and it was not dismissed. */
export function selectPromptShown(state: NotificationState): boolean {
  return state.loaded && state.permission === 'default' && !state.promptDismissed;
}
