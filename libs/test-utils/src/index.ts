export * from './fixtures';
export * from './faults';
export * from './ports';
export * from './processes';
export * from './keyfiles';
export * from './clients';
export * from './rejections';
export * from './certificates';
