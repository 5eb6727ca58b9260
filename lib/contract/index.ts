export * from './http';
export * from './socket';
export * from './constants';
