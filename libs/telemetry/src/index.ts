export * from './build-info';
export * from './logger';
export * from './metrics';
export * from './tracing';
export * from './dependency-log';
export * from './retry-log';
export * from './http-server';
export * from './runtime-support';
