import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useT } from '@/lib/i18n';
import { Modal } from '@/components/ui/modal';
import { BlockedPeopleSection } from './blocked-people-section';
import { LanguageChoice } from './language-choice';
import { MessagePolicySection } from './message-policy-section';
import { MyDataSection } from './my-data-section';
import { NotificationsSection } from './notifications-section';
import { PresenceSection } from './presence-section';
import { ProfileSection } from './profile-section';
import { ReadReceiptsSection } from './read-receipts-section';
import { StorageUsage } from './storage-usage';
import styles from './settings.module.css';

/**
 * The settings, one section at a time (a tab each): a section added later is one more entry here,
 * with its label in lib/i18n/locales (settings.sections).
 */
const SECTIONS = {
  profile: () => <ProfileSection />,
  notifications: () => <NotificationsSection />,
  language: () => (
    <section className={styles.section}>
      <LanguageChoice />
    </section>
  ),
  privacy: () => (
    <>
      <MessagePolicySection />
      <PresenceSection />
      <ReadReceiptsSection />
    </>
  ),
  blocked: () => <BlockedPeopleSection />,
  data: () => (
    <>
      <StorageUsage />
      <MyDataSection />
    </>
  ),
} satisfies Record<string, () => ReactNode>;

export type SettingsSection = keyof typeof SECTIONS;
const ORDER = Object.keys(SECTIONS) as SettingsSection[];

interface Props {
  /** The section shown first. */
  section?: SettingsSection;
  onClose: () => void;
}

/** Profile, notifications, language, privacy, blocked people and the account's data, in a dialog of tabs. */
export function SettingsDialog({ section = 'profile', onClose }: Props) {
  const t = useT();
  const id = useId();
  const [shown, setShown] = useState<SettingsSection>(section);
  const tabs = useRef(new Map<SettingsSection, HTMLButtonElement>());

  // Opened, the dialog starts on its section's tab (the Modal has just opened it: children's
  // effects run first), not on the Close button.
  useEffect(() => {
    tabs.current.get(section)?.focus();
  }, [section]);

  // The tabs pattern: arrows move between tabs (either axis: the list is a column on a wide
  // screen and a row on a phone), Home and End to the ends; moving shows the section.
  function onKeyDown(event: KeyboardEvent) {
    const at = ORDER.indexOf(shown);
    const next = { ArrowDown: at + 1, ArrowRight: at + 1, ArrowUp: at - 1, ArrowLeft: at - 1, Home: 0, End: ORDER.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const target = ORDER[(next + ORDER.length) % ORDER.length]!;
    setShown(target);
    tabs.current.get(target)?.focus();
  }

  return (
    <Modal title={t('settings.title')} onClose={onClose} wide>
      <div className={styles.layout}>
        <div className={styles.tabs} role="tablist" aria-label={t('settings.sectionsLabel')} onKeyDown={onKeyDown}>
          {ORDER.map((name) => (
            <button
              key={name}
              ref={(element) => {
                if (element) tabs.current.set(name, element);
                else tabs.current.delete(name);
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${name}`}
              className={styles.tab}
              aria-selected={name === shown}
              aria-controls={`${id}-panel`}
              tabIndex={name === shown ? 0 : -1}
              onClick={() => setShown(name)}
            >
              {t(`settings.sections.${name}`)}
            </button>
          ))}
        </div>
        <div id={`${id}-panel`} className={styles.panel} role="tabpanel" aria-labelledby={`${id}-tab-${shown}`} tabIndex={0}>
          {SECTIONS[shown]()}
        </div>
      </div>
    </Modal>
  );
}
