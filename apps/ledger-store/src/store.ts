import type { KeyValue } from './storage/kv';
import { LedgerRepository } from './repositories/ledgers';

/** The typed repositories over one open database. */
export class LedgerStore {
  readonly ledgers: LedgerRepository;

  constructor(readonly kv: KeyValue) {
    this.ledgers = new LedgerRepository(kv);
  }

  close(): Promise<void> {
    return this.kv.close();
  }
}
