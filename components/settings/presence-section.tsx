import { useT } from '@/lib/i18n';
import { setShowPresence } from '@/lib/realtime/presence-setting';
import { useSessionStore } from '@/lib/stores/session-store';
import { PrivacySwitch } from './privacy-switch';

/** Whether others see when the user is online and was last seen (and so the user theirs). */
export function PresenceSection() {
  const t = useT();
  const shown = useSessionStore((state) => state.user?.show_presence ?? true);
  return (
    <PrivacySwitch
      title={t('settings.onlineStatus')}
      label={t('settings.showPresence')}
      hint={t('settings.showPresenceHint')}
      checked={shown}
      save={setShowPresence}
    />
  );
}
