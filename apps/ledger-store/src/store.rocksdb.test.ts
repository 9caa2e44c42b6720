import { storeSpecification } from './store.spec';

storeSpecification('RocksDB');
