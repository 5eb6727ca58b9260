export * from './http';
export * from './socket';
export * from './constants';
export * from './people';
export * from './messaging';
export * from './safety';
export * from './push';
