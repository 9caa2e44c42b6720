import { booleanFlag, integerFlag, type FlagGroup } from '../flag';

/**
 * Bounds on what one HTTP request may ask of the facade (go-ethereum's JSON-RPC limits are the
 * model), and on the memory it keeps answers in.
 */
export const limitOptions: FlagGroup = {
  title: 'Limits (facade)',
  flags: [
    integerFlag({ name: 'max_connections', description: 'Most open HTTP connections on each JSON-RPC and REST listener (more are closed at once)', default: 1024, min: 1, max: 1_000_000, valueName: 'N' }),
    integerFlag({ name: 'max_body_bytes', description: 'Largest JSON-RPC or REST request body in bytes (413 beyond)', default: 1_048_576, min: 1024, max: 64 * 1_048_576, valueName: 'BYTES' }),
    integerFlag({ name: 'max_batch', description: 'Most calls in one JSON-RPC batch, a block with full transactions counting 10 and jt_account one per 100 transactions its page may hold (-32600 beyond)', default: 100, min: 1, max: 10_000, valueName: 'N' }),
    integerFlag({ name: 'max_response_bytes', description: 'Most bytes the answers to one JSON-RPC request may take together (calls past it get -32012)', default: 25_000_000, min: 65_536, max: 1_073_741_824, valueName: 'BYTES' }),
    integerFlag({ name: 'max_page_size', description: 'Most transactions in one page of jt_account or REST account history (error beyond)', default: 1000, min: 1, max: 1000, valueName: 'N' }),
    integerFlag({ name: 'send_rate', description: 'Most sends (jt_sendTransaction, jt_sendRawTransaction, REST POST /transactions, and submit and submit_multisigned on the rippled API) one client may make a second, by its address (-32013 / HTTP 429 / slowDown beyond; 0: no limit); clients on this host are not counted unless -send_rate_local', default: 10, min: 0, max: 100_000, valueName: 'N' }),
    booleanFlag({ name: 'send_rate_local', description: 'Count the sends of clients on this host (loopback connections) against -send_rate too; by default a local backend is not limited, as rippled lets local connections through', default: false }),
    integerFlag({ name: 'answer_cache_mb', description: 'Memory the facade keeps answers that never change in (validated transactions and receipts by hash, through every API; balances at a ledger index), in MiB (0: none)', default: 64, min: 0, max: 4096, valueName: 'MIB' }),
    integerFlag({ name: 'hot_set_mb', description: 'Memory the facade keeps the jt_getTransactionByHash and jt_getTransactionReceipt answers in that it renders ahead for the transactions of each ledger as it is stored, in MiB (0: none, each rendered when first asked for)', default: 8, min: 0, max: 1024, valueName: 'MIB' }),
  ],
};
