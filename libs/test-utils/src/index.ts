export * from './fixtures';
export * from './ports';
export * from './processes';
export * from './keyfiles';
export * from './clients';
export * from './rejections';
