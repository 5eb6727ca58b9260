'use client';
import { useEffect, useRef } from 'react';
import { useLanguage, useT } from '@/lib/i18n';
import { Modal } from '@/components/ui/modal';
import styles from './emoji-picker.module.css';

interface Props {
  onPick: (emoji: string) => void;
  onClose: () => void;
}

/** Where the picker's data comes from: this origin (app/emoji-data), in the reader's language. */
const dataSource = (language: string) => `/emoji-data/${language}`;

/** The picker's own labels in the reader's language (English is its default). */
async function loadLabels(language: string): Promise<unknown> {
  if (language === 'es') return (await import('emoji-picker-element/i18n/es')).default;
  if (language === 'fr') return (await import('emoji-picker-element/i18n/fr')).default;
  return null;
}

/**
 * Loads the picker ahead, so that opening it is instant: its code, its labels, and its data into
 * the IndexedDB the picker reads (the first time the data is fetched, about 430 KB; afterwards a
 * HEAD request sees its ETag unchanged). The main area calls it when idle, after the thread's own
 * prefetch (lib/realtime/prefetch.ts); it is never part of /main's first load.
 */
export async function preloadEmojiPicker(language: string): Promise<void> {
  const [{ default: Database }] = await Promise.all([import('emoji-picker-element/database'), import('emoji-picker-element/picker'), loadLabels(language)]);
  // Left open: the picker opened later shares the connection.
  await new Database({ dataSource: dataSource(language), locale: language }).ready();
}

/**
 * The full emoji picker (emoji-picker-element: searchable, keyboard-navigable, skin tones), in a
 * modal dialog, loaded ahead when the page is idle (preloadEmojiPicker) or when opened. Its data
 * comes from this origin (app/emoji-data), in the reader's language.
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
      const picker = new Picker({ dataSource: dataSource(language), locale: language, ...(i18n ? { i18n: i18n as never } : {}) });
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
