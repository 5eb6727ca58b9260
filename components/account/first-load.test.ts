// The sign-in page's first load is a small page (BENCHMARKS.md has its budget). Firebase, the API client, the socket
// and the stores come when a sign-in starts (a dynamic import), never with the page.
import { describe, expect, it } from 'vitest';
import { staticImportGraph } from '@/lib/testing/import-graph';

describe('/account first load', () => {
  const graph = staticImportGraph('app/layout.tsx', 'app/(session)/layout.tsx', 'app/(session)/account/page.tsx');

  it('imports no heavy package at load time', () => {
    for (const heavy of ['firebase', 'socket.io-client', 'ky', 'zustand', 'react-virtuoso']) {
      expect(graph.packages, heavy).not.toContain(heavy);
    }
  });

  it('reaches neither the API client, the socket, the stores nor the sign-in flow', () => {
    const files = [...graph.files];
    expect(files.filter((file) => /^lib\/(api|socket|stores|realtime|outbox)\//.test(file) || file.startsWith('lib/firebase/sign-in.ts'))).toEqual([]);
  });

  it('has the sign-in screen’s English only, not the rest of it nor other languages', () => {
    expect(graph.files).toContain('lib/i18n/locales/en-sign-in.ts');
    for (const language of ['en', 'es', 'fr']) expect(graph.files).not.toContain(`lib/i18n/locales/${language}.ts`);
  });

  it('still has the screen itself (the graph is followed)', () => {
    expect(graph.files).toContain('components/account/account-screen.tsx');
    expect(graph.files).toContain('lib/i18n/i18n.ts');
  });
});
