export * from './database';
export * from './hosts';
export * from './writer-lock';
export * from './writer-election';
