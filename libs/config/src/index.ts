export * from './flag';
export * from './parse';
export * from './help';
export * from './options/index';
export * from './paths';
export * from './secrets';
export * from './endpoints';
export * from './store';
