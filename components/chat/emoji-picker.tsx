'use client';
import { useEffect, useRef } from 'react';
import { useLanguage } from '@/components/i18n/i18n-provider';
import { useT } from '@/lib/i18n';
import { Modal } from '@/components/ui/modal';
import styles from './thread.module.css';

interface Props {
  onPick: (emoji: string) => void;
  onClose: () => void;
}

/** The picker's own labels in the reader's language (English is its default). */
async function loadLabels(language: string): Promise<unknown> {
  if (language === 'es') return (await import('emoji-picker-element/i18n/es')).default;
  if (language === 'fr') return (await import('emoji-picker-element/i18n/fr')).default;
  return null;
}

/**
 * The full emoji picker (emoji-picker-element: searchable, keyboard-navigable, skin tones),
 * loaded only when opened (docs/DECISIONS.md), in a modal dialog. Its data comes from this origin
 * (app/emoji-data), in the reader's language.
 */
export default function EmojiPicker({ onPick, onClose }: Props) {
  const t = useT();
  const language = useLanguage();
  const host = useRef<HTMLDivElement>(null);
  const picked = useRef(onPick);
  useEffect(() => {
    picked.current = onPick;
  });

  useEffect(() => {
    let cancelled = false;
    let element: HTMLElement | null = null;
    void Promise.all([import('emoji-picker-element/picker'), loadLabels(language)]).then(([{ default: Picker }, i18n]) => {
      if (cancelled || !host.current) return;
      const picker = new Picker({ dataSource: `/emoji-data/${language}`, locale: language, ...(i18n ? { i18n: i18n as never } : {}) });
      picker.addEventListener('emoji-click', (event) => {
        if (event.detail.unicode) picked.current(event.detail.unicode);
      });
      host.current.append(picker);
      element = picker;
    });
    return () => {
      cancelled = true;
      element?.remove();
    };
  }, [language]);

  return (
    <Modal title={t('messageActions.pickerTitle')} onClose={onClose}>
      <div ref={host} className={styles.picker} data-testid="emoji-picker" />
    </Modal>
  );
}
