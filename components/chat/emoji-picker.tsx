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

/** The emoji data in the reader's language (names and keywords to search by), from the package, never a CDN. */
async function loadData(language: string): Promise<{ data: unknown; i18n: unknown }> {
  switch (language) {
    case 'es':
      return { data: (await import('emoji-picker-element-data/es/cldr/data.json')).default, i18n: (await import('emoji-picker-element/i18n/es')).default };
    case 'fr':
      return { data: (await import('emoji-picker-element-data/fr/emojibase/data.json')).default, i18n: (await import('emoji-picker-element/i18n/fr')).default };
    default:
      return { data: (await import('emoji-picker-element-data/en/emojibase/data.json')).default, i18n: null };
  }
}

/**
 * The full emoji picker (emoji-picker-element: searchable, keyboard-navigable, skin tones),
 * loaded only when opened (docs/DECISIONS.md), in a modal dialog. Its data is this app's own copy,
 * handed to it as an object URL.
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
    let url: string | null = null;
    let element: HTMLElement | null = null;
    void Promise.all([import('emoji-picker-element/picker'), loadData(language)]).then(([{ default: Picker }, { data, i18n }]) => {
      if (cancelled || !host.current) return;
      url = URL.createObjectURL(new Blob([JSON.stringify(data)], { type: 'application/json' }));
      const picker = new Picker({ dataSource: url, locale: language, ...(i18n ? { i18n: i18n as never } : {}) });
      picker.addEventListener('emoji-click', (event) => {
        if (event.detail.unicode) picked.current(event.detail.unicode);
      });
      host.current.append(picker);
      element = picker;
    });
    return () => {
      cancelled = true;
      element?.remove();
      if (url) URL.revokeObjectURL(url);
    };
  }, [language]);

  return (
    <Modal title={t('messageActions.pickerTitle')} onClose={onClose}>
      <div ref={host} className={styles.picker} data-testid="emoji-picker" />
    </Modal>
  );
}
