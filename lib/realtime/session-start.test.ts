// The messaging session starts after the main area's first screen (session-start.ts), and the
// connection waits for it: no event of the connection comes before its listeners.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeSocket } from '@/lib/socket/testing/fake-socket';

const order = vi.hoisted(() => [] as string[]);
const session = vi.hoisted(() => ({ evaluated: 0, startMessagingSession: vi.fn((id: number) => void order.push(`session ${id}`)) }));
// A session whose code takes a while to arrive (a slow network): the connection must wait for it.
vi.mock('./messaging-session', async () => {
  session.evaluated += 1;
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { startMessagingSession: session.startMessagingSession };
});
vi.mock('socket.io-client', () => ({
  io: (url: unknown, options?: unknown) => {
    order.push('socket');
    return new FakeSocket(typeof url === 'string' ? url : undefined, (typeof url === 'string' ? options : url) as never).asClientSocket();
  },
}));

afterEach(() => {
  order.length = 0;
  session.evaluated = 0;
  session.startMessagingSession.mockClear();
});

describe('starting the messaging session', () => {
  it('gives the socket the id at once, loads the session once the first screen is painted, and connects only after it started', async () => {
    const { startMessagingSessionSoon } = await import('./session-start');
    const { socketService } = await import('@/lib/socket/socket-service');
    const { firstScreenShown } = await import('@/lib/session/first-screen');
    startMessagingSessionSoon(7);
    // docs/CLIENT-RULES.md: the socket is initialised with the id before the user is published.
    expect(socketService.userId()).toBe(7);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(session.evaluated).toBe(0);
    firstScreenShown();
    await vi.waitFor(() => expect(order).toEqual(['session 7', 'socket']));
    socketService.disconnectSocket();
  });

  it('a sign-out before the session’s code is in starts no session', async () => {
    const { startMessagingSessionSoon, loadMessagingSession } = await import('./session-start');
    const { signOut } = await import('@/lib/session/sign-out');
    startMessagingSessionSoon(8);
    signOut();
    await loadMessagingSession();
    await Promise.resolve();
    expect(session.startMessagingSession).not.toHaveBeenCalledWith(8);
  });
});
