// The composer's text kept as a draft of its conversation (lib/drafts): restored when the
// conversation opens again (after switching or a reload), saved as the user types, removed when
// the text is sent or cleared.
import { useCallback, useEffect, useRef, type Dispatch, type SetStateAction } from 'react';
import { appDrafts } from '@/lib/drafts/drafts';

export interface DraftKey {
  userId: number;
  peerId: number;
}

const SAVE_DELAY_MS = 300;

function save(key: DraftKey, text: string): void {
  appDrafts()
    .save(key.userId, key.peerId, text)
    .catch((error: unknown) => console.error('Saving the draft failed', error));
}

/**
 * Keeps `text` as the draft of `key`'s conversation. Returns `discard`, for the moment the text is
 * sent: the draft is removed at once, not after the typing delay, so a reload or a closed tab
 * right after sending never brings the sent text back into the box.
 */
export function useDraft(key: DraftKey | null, text: string, setText: Dispatch<SetStateAction<string>>): () => void {
  const userId = key?.userId ?? null;
  const peerId = key?.peerId ?? null;
  // Nothing is saved before the stored draft is read: the empty box would overwrite it.
  const loaded = useRef(false);
  const latest = useRef(text);
  useEffect(() => {
    latest.current = text;
  }, [text]);

  useEffect(() => {
    loaded.current = false;
    if (userId === null || peerId === null) return;
    let live = true;
    appDrafts()
      .load(userId, peerId)
      .then((draft) => {
        if (!live) return;
        loaded.current = true;
        // Typing that started before the draft arrived wins.
        if (draft) setText((current) => (current === '' ? draft : current));
      })
      .catch((error: unknown) => {
        loaded.current = true;
        console.error('Reading the draft failed', error);
      });
    // Leaving the conversation, or the page (a reload, a closed tab): what was typed is kept now.
    const flush = () => {
      if (loaded.current) save({ userId, peerId }, latest.current);
    };
    window.addEventListener('pagehide', flush);
    return () => {
      live = false;
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [userId, peerId, setText]);

  useEffect(() => {
    if (userId === null || peerId === null || !loaded.current) return;
    const timer = setTimeout(() => save({ userId, peerId }, text), SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [userId, peerId, text]);

  return useCallback(() => {
    latest.current = '';
    if (userId !== null && peerId !== null) save({ userId, peerId }, '');
  }, [userId, peerId]);
}
