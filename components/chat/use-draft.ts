// The composer's text kept as a draft of its conversation (lib/drafts): restored when the
// conversation opens again (after switching or a reload), kept as the user types, removed when
// the text is sent or cleared.
import { useCallback, useEffect, useLayoutEffect, useRef, type Dispatch, type SetStateAction } from 'react';
import { keepTyped, readDraft, storeDraft } from '@/lib/drafts/drafts';

export interface DraftKey {
  userId: number;
  peerId: number;
}

const SAVE_DELAY_MS = 300;

/** The text last kept and when it was typed; `stored` once IndexedDB has (or is being given) it. */
interface Kept {
  text: string;
  at: number;
  stored: boolean;
}

function store(key: DraftKey, kept: Kept): void {
  kept.stored = true;
  storeDraft(key.userId, key.peerId, kept.text, kept.at).catch((error: unknown) => console.error('Saving the draft failed', error));
}

/**
 * Keeps `text` as the draft of `key`'s conversation: each change in this tab at once (a
 * synchronous write, done before the next key), in IndexedDB 300 ms after the typing stops and
 * when the conversation is left. Returns `discard`, for the moment the text is sent: the draft is
 * removed at once, not after the typing delay, so a reload or a closed tab right after sending
 * never brings the sent text back into the box.
 */
export function useDraft(key: DraftKey | null, text: string, setText: Dispatch<SetStateAction<string>>): () => void {
  const userId = key?.userId ?? null;
  const peerId = key?.peerId ?? null;
  // Nothing is kept before the stored draft is read: the empty box would overwrite it.
  const loaded = useRef(false);
  const kept = useRef<Kept | null>(null);

  useEffect(() => {
    loaded.current = false;
    kept.current = null;
    if (userId === null || peerId === null) return;
    let live = true;
    readDraft(userId, peerId)
      .then((draft) => {
        if (!live) return;
        loaded.current = true;
        if (!draft) return;
        // Typing that started before the draft arrived wins.
        setText((current) => {
          if (current !== '') return current;
          kept.current = { ...draft, stored: true };
          return draft.text;
        });
      })
      .catch((error: unknown) => {
        loaded.current = true;
        console.error('Reading the draft failed', error);
      });
    // Leaving the conversation: what was typed is stored now.
    return () => {
      live = false;
      if (kept.current && !kept.current.stored) store({ userId, peerId }, kept.current);
    };
  }, [userId, peerId, setText]);

  // In the commit of the key itself: a reload right after the last key finds it in the mirror.
  useLayoutEffect(() => {
    if (userId === null || peerId === null || (!loaded.current && text === '')) return;
    if (kept.current?.text === text) return;
    kept.current = { text, at: keepTyped(userId, peerId, text), stored: false };
  }, [userId, peerId, text]);

  useEffect(() => {
    const last = kept.current;
    if (userId === null || peerId === null || last === null || last.stored) return;
    const timer = setTimeout(() => store({ userId, peerId }, last), SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [userId, peerId, text]);

  return useCallback(() => {
    if (userId === null || peerId === null) return;
    const emptied: Kept = { text: '', at: keepTyped(userId, peerId, ''), stored: false };
    kept.current = emptied;
    store({ userId, peerId }, emptied);
  }, [userId, peerId]);
}
