export * from './address';
export * from './client';
export * from './health';
export * from './server';
export * from './status';
export * from './types';
export * from './standalone';
export * from './readiness';
