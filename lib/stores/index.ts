export * from './session-store';
export * from './counter-store';
export * from './connection-store';
export * from './people-store';
export * from './conversations-store';
export * from './thread-store';
