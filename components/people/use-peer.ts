import { useState } from 'react';
import type { UserSummary } from '@/lib/contract';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { usePeopleStore } from '@/lib/stores/people-store';
import { useT } from '@/lib/i18n';

/**
 * What we know about the person a conversation is with, from wherever it was read: their
 * profile, their conversation row, or the search result they were opened from. The last thing
 * known is kept while nothing is, so clearing the search never blanks the thread header.
 */
export function usePeer(peerId: number): UserSummary | null {
  const profile = usePeopleStore((state) => state.profiles[peerId]);
  const row = useConversationsStore((state) => state.conversations.find((conversation) => conversation.user.id === peerId)?.user);
  const result = usePeopleStore((state) => state.searchResults.find((person) => person.id === peerId));
  // A conversation row made from a live message names nobody until the profile arrives.
  const live = profile ?? (row?.username ? row : undefined) ?? result ?? row ?? null;

  const [remembered, setRemembered] = useState<UserSummary | null>(live);
  if (live && live !== remembered) setRemembered(live);
  return live ?? (remembered?.id === peerId ? remembered : null);
}

/** The name a conversation shows for its person, for the tab's title; null while none is known (or none is open). */
export function usePeerTitleName(peerId: number | null): string | null {
  const t = useT();
  // No account has id 0: nothing is found for it.
  const peer = usePeer(peerId ?? 0);
  if (peerId === null || !peer) return null;
  return peer.deleted ? t('safety.deletedAccount') : peer.username;
}
