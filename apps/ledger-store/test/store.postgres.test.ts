import { storeSpecification } from '../src/store.spec';

storeSpecification('PostgreSQL');
