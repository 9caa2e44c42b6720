declare module 'rocksdb' {
  const rocksdb: unknown;
  export default rocksdb;
}
