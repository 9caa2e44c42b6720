export * from './database';
export * from './writer-lock';
