import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SOCKET_PROTOCOL } from '@/lib/contract';
import { RELOAD_AGAIN_AFTER_MS, isProtocolRefusal, reloadForNewClient } from './outdated';

describe('isProtocolRefusal', () => {
  it('is a refusal naming the protocols served, none of them this client’s', () => {
    expect(isProtocolRefusal({ message: 'x', data: { protocols: [SOCKET_PROTOCOL + 1] } })).toBe(true);
    expect(isProtocolRefusal({ message: 'x', data: { protocols: [SOCKET_PROTOCOL, SOCKET_PROTOCOL + 1] } })).toBe(false);
    expect(isProtocolRefusal(new Error('Unauthorized'))).toBe(false);
    expect(isProtocolRefusal({ data: { protocols: 'all' } })).toBe(false);
    expect(isProtocolRefusal(null)).toBe(false);
  });
});

describe('reloadForNewClient', () => {
  beforeEach(() => sessionStorage.clear());

  it('reloads once, then not again within a few minutes, then again', () => {
    const reload = vi.fn();
    expect(reloadForNewClient(reload, 1_000_000)).toBe(true);
    expect(reloadForNewClient(reload, 1_000_000 + RELOAD_AGAIN_AFTER_MS - 1)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(reloadForNewClient(reload, 1_000_000 + RELOAD_AGAIN_AFTER_MS)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
