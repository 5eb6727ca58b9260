export * from './session-store';
export * from './counter-store';
export * from './connection-store';
