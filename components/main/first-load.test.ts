// What /main downloads before its conversation list is on screen (BENCHMARKS.md has the budget). The open thread
// (virtualised list, composer, uploads), Firebase and socket.io-client come later, by dynamic import.
import { describe, expect, it } from 'vitest';
import { staticImportGraph } from '@/lib/testing/import-graph';

describe('/main first load', () => {
  const graph = staticImportGraph('app/layout.tsx', 'app/(session)/layout.tsx', 'app/(session)/main/layout.tsx');

  it('leaves out the thread view, the reaction picker and Firebase', () => {
    expect(graph.packages).not.toContain('react-virtuoso');
    expect(graph.packages).not.toContain('emoji-picker-element');
    expect(graph.files).not.toContain('components/chat/emoji-picker.tsx');
    expect(graph.packages).not.toContain('linkifyjs');
    expect(graph.packages).not.toContain('firebase');
    // The list comes over HTTP; the connection's library is loaded when the socket is first wanted.
    expect(graph.packages).not.toContain('socket.io-client');
    expect(graph.packages).not.toContain('engine.io-client');
    expect(graph.files).not.toContain('components/chat/thread-view.tsx');
    expect(graph.files).not.toContain('components/chat/composer.tsx');
    // The search panels: fetched once the list is on screen, or when the search area is focused.
    expect(graph.files).not.toContain('components/people/search-results.tsx');
    expect(graph.files).not.toContain('components/chat/message-search.tsx');
    // Asked of nameless users only.
    expect(graph.files).not.toContain('components/main/name-prompt.tsx');
  });

  it('has what the list needs (the graph is followed)', () => {
    expect(graph.files).toContain('components/chat/conversation-list.tsx');
    expect(graph.files).toContain('lib/socket/socket-service.ts');
    expect(graph.packages).toContain('ky');
  });
});
