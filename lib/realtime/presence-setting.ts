// The privacy setting "show when I'm online": saved on the server, then published with the user,
// which the presence subscriptions follow (off: nothing is asked for or shown; on: asked again).
import { updateSettings } from '@/lib/api/accounts';
import type { User } from '@/lib/contract';
import { useSessionStore } from '@/lib/stores/session-store';

export async function setShowPresence(show: boolean): Promise<User> {
  const user = await updateSettings({ show_presence: show });
  useSessionStore.getState().publishUser(user);
  return user;
}
