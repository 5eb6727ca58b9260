import { useT } from '@/lib/i18n';
import { Modal } from '@/components/ui/modal';
import { BlockedPeopleSection } from './blocked-people-section';
import { MessagePolicySection } from './message-policy-section';
import { MyDataSection } from './my-data-section';
import { PresenceSection } from './presence-section';
import { ReadReceiptsSection } from './read-receipts-section';
import { StorageUsage } from './storage-usage';
import styles from './settings.module.css';

/** Privacy and account: who can message me, online status, blocked people, storage used, my data, deleting the account. */
export function SettingsDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  return (
    <Modal title={t('privacy.title')} onClose={onClose}>
      <div className={styles.sections}>
        <MessagePolicySection />
        <PresenceSection />
        <ReadReceiptsSection />
        <BlockedPeopleSection />
        <StorageUsage />
        <MyDataSection />
      </div>
    </Modal>
  );
}
