// The socket's connection status, for a "reconnecting…" indicator. Written only by lib/socket.
import { create } from 'zustand';

export type ConnectionStatus = 'connected' | 'connecting' | 'disconnected';

export interface ConnectionState {
  status: ConnectionStatus;
  /** Reconnection attempts since the last successful connection; 0 while connected. */
  reconnectAttempt: number;
}

export interface ConnectionActions {
  setStatus: (status: ConnectionStatus) => void;
  setReconnectAttempt: (attempt: number) => void;
}

export type ConnectionStore = ConnectionState & ConnectionActions;

const initialConnectionState: ConnectionState = { status: 'disconnected', reconnectAttempt: 0 };

export const useConnectionStore = create<ConnectionStore>()((set) => ({
  ...initialConnectionState,
  setStatus: (status) => set(status === 'connected' ? { status, reconnectAttempt: 0 } : { status }),
  setReconnectAttempt: (attempt) => set({ reconnectAttempt: attempt, status: 'connecting' }),
}));

export const useConnectionStatus = () => useConnectionStore((state) => state.status);

/** Tests only: back to the initial values between cases. */
export function resetConnectionStore(): void {
  useConnectionStore.setState(initialConnectionState);
}
