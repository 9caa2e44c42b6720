export * from './database';
export * from './writer-lock';
export * from './writer-election';
