import { storeSpecification } from './store.spec';

storeSpecification('PostgreSQL');
