// This tab's latest keystrokes of each draft, written synchronously as they are typed. An
// IndexedDB write is asynchronous: one started a moment before a reload, or as the page goes away,
// may never commit. sessionStorage is written before setItem returns and outlives a reload, a
// crashed tab brought back and a closed laptop lid, so what was typed last is always there to read
// back; the IndexedDB copy (drafts.ts) is what other tabs and later visits read. Not localStorage,
// which holds only `token` and `locale` (docs/CLIENT-RULES.md).
import { tabStorage } from '@/lib/storage/tab-storage';

const PREFIX = 'parley-draft:';

export interface MirroredDraft {
  /** The text as typed; '' when it was emptied (or sent), which must win over an older stored draft. */
  text: string;
  /** When it was typed (ms), to compare with the stored draft's time. */
  at: number;
}

const keyOf = (userId: number, peerId: number) => `${PREFIX}${userId}:${peerId}`;

export function writeMirror(userId: number, peerId: number, draft: MirroredDraft): void {
  try {
    tabStorage()?.setItem(keyOf(userId, peerId), JSON.stringify(draft));
  } catch {
    // Full or refused: the IndexedDB copy still follows a moment later.
  }
}

export function readMirror(userId: number, peerId: number): MirroredDraft | null {
  try {
    const raw = tabStorage()?.getItem(keyOf(userId, peerId));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<MirroredDraft>;
    return typeof parsed.text === 'string' && typeof parsed.at === 'number' ? { text: parsed.text, at: parsed.at } : null;
  } catch {
    return null;
  }
}

/** The stored copy caught up with the mirror written at `at`: it is no longer needed (unless typed over since). */
export function clearMirror(userId: number, peerId: number, at: number): void {
  if (readMirror(userId, peerId)?.at !== at) return;
  try {
    tabStorage()?.removeItem(keyOf(userId, peerId));
  } catch {
    // Left behind: the next read finds the stored copy as new as it, which wins.
  }
}
