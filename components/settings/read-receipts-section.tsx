import { updateSettings } from '@/lib/api/accounts';
import { useT } from '@/lib/i18n';
import { useSessionStore } from '@/lib/stores/session-store';
import { PrivacySwitch } from './privacy-switch';

/** Whether the people the user writes with see when the user read their messages (and the user theirs). */
export function ReadReceiptsSection() {
  const t = useT();
  const on = useSessionStore((state) => state.user?.read_receipts ?? true);
  return (
    <PrivacySwitch
      label={t('settings.readReceipts')}
      hint={t('settings.readReceiptsHint')}
      checked={on}
      save={async (readReceipts) => useSessionStore.getState().publishUser(await updateSettings({ read_receipts: readReceipts }))}
    />
  );
}
