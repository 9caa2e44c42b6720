/**
 * `ledger-node verify-state -ledger N`: reads the account state at ledger N from the running
 * ledger-store, recomputes its SHAMap root and compares it with the stored header's
 * account_hash. Exit 0 when they are equal, 1 otherwise (or when the state cannot be read).
 */
import { decodeLedgerHeader, StateTree } from '@ledger-node/chain';
import { FlagError, serviceAddress, type ParsedFlags } from '@ledger-node/config';
import { LedgerStoreServiceService, TxDetail } from '@ledger-node/contracts';
import { createGrpcClient } from '@ledger-node/grpc';

/** Objects read per ListStateObjects call (the store's maximum). */
const PAGE = 4096;

export async function runVerifyState(rest: string[], flags: ParsedFlags): Promise<number> {
  if (rest.length > 0) throw new FlagError(`unexpected argument "${rest[0]}" (see --help)`);
  const ledgerIndex = flags.integer('ledger');
  if (ledgerIndex === undefined) throw new FlagError('verify-state needs -ledger N');
  const client = createGrpcClient(LedgerStoreServiceService, serviceAddress(flags, 'ledger-store'), {
    idempotent: ['getLedger', 'listStateObjects'],
    deadlineMs: 60_000,
    serviceLabel: 'ledger-store',
  });
  try {
    const { ledger } = await client.getLedger({ ledger: { selector: { $case: 'index', index: ledgerIndex } }, txDetail: TxDetail.NONE });
    if (!ledger) {
      process.stderr.write(`verify-state: ledger ${ledgerIndex} is not stored\n`);
      return 1;
    }
    const expected = decodeLedgerHeader(ledger.headerBlob).accountHash.toUpperCase();
    const tree = new StateTree();
    let objectCount = 0;
    let afterKey = Buffer.alloc(0);
    do {
      const page = await client.listStateObjects({ ledgerIndex, afterKey, limit: PAGE, beforeKey: Buffer.alloc(0) });
      for (const object of page.objects) tree.set(Buffer.from(object.key).toString('hex'), object.blob);
      objectCount += page.objects.length;
      afterKey = Buffer.from(page.nextAfterKey);
    } while (afterKey.length > 0);
    const root = tree.root().toUpperCase();
    if (root !== expected) {
      process.stderr.write(
        `verify-state: the stored state at ledger ${ledgerIndex} does not verify: its root is ${root}, the header's account_hash is ${expected} (${objectCount} objects)\n`,
      );
      return 1;
    }
    process.stdout.write(`verify-state: the stored state at ledger ${ledgerIndex} verifies: root ${root} equals account_hash (${objectCount} objects)\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`verify-state: ${(error as Error).message}\n`);
    return 1;
  } finally {
    client.close();
  }
}
