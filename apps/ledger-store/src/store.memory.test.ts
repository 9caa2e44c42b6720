import { storeSpecification } from './store.spec';

storeSpecification('in memory');
