// The account's notification settings (what a notification shows, sound): saved on the server, so
// pushes to every device follow them, and published with the user.
import { updateSettings } from '@/lib/api/accounts';
import type { NotificationPreview, User } from '@/lib/contract';
import { useSessionStore } from '@/lib/stores/session-store';

export async function saveNotificationSettings(changes: { notification_preview?: NotificationPreview; notification_sound?: boolean }): Promise<User> {
  const user = await updateSettings(changes);
  useSessionStore.getState().publishUser(user);
  return user;
}
