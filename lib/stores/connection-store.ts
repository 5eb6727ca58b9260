// The socket's connection status, for a "reconnecting…" indicator. The messaging session copies
// it from the socket service's `status` event.
import { create } from 'zustand';
import type { ConnectionStatus } from '@/lib/socket/socket-service';

export type { ConnectionStatus };

interface ConnectionState {
  status: ConnectionStatus;
  /** Reconnection attempts since the last successful connection; 0 while connected. */
  reconnectAttempt: number;
}

interface ConnectionActions {
  setStatus: (status: ConnectionStatus, reconnectAttempt?: number) => void;
}

export type ConnectionStore = ConnectionState & ConnectionActions;

export const useConnectionStore = create<ConnectionStore>()((set) => ({
  status: 'disconnected',
  reconnectAttempt: 0,
  setStatus: (status, reconnectAttempt) =>
    set((state) => ({
      status,
      reconnectAttempt: status === 'connected' ? 0 : (reconnectAttempt ?? state.reconnectAttempt),
    })),
}));

export const useConnectionStatus = () => useConnectionStore((state) => state.status);
