/**
 * Real values for the examples of the API documents (OpenRPC and OpenAPI), so that a reader sees
 * answers the node gives, not invented shapes. Most come from XRP Ledger mainnet ledger 38129
 * (fixtures/xrpl/ledgers/mainnet/38129-full-state.json): its one payment and the accounts it
 * touched, rendered as this node renders them. The signing examples are signed with the devnet's
 * genesis key (the well-known seed of rippled's genesis account). examples.test.ts derives every
 * value again from those sources and compares.
 */

/** Mainnet ledger 38129 and the payment it holds. */
export const ledger38129 = {
  index: 38129,
  hash: 'E6DB7365949BF9814D76BCC730B01818EB9136A89DB224F3F9F5AAE4569D758E',
  /** The ledger's close time in Ripple-epoch seconds, and the same as Unix seconds. */
  closeTimeRippleEpoch: 410424200,
  closeTimeUnix: 1357109000,
  paymentHash: '3B1A4E1C9BB6A7208EB146BCDB86ECEA6068ED01466D933528CA2B4C64F753EF',
  paymentBlob:
    '1200002200000000240000003E6140000002540BE40068400000000000000A7321034AADB09CFF4A4804073701EC53C3510CDC95917C2BB0150FB742D0C66E6CEE9E74473045022022EB32AECEF7C644C891C19F87966DF9C62B1F34BABA6BE774325E4BB8E2DD62022100A51437898C28C2B297112DF8131F2BB39EA5FE613487DDD611525F17962646398114550FC62003E785DC231A1058A05E56E3F09CF4E68314D4CC8AB5B21D86A82C3E9E8D0ECF2404B77FECBA',
  /** The payment's sender (its 62nd transaction) and its receiver (created by it). */
  sender: 'r3kmLJN5D28dHuH8vZNUZpMC43pEHpaocV',
  receiver: 'rLQBHVhFnaC5gLEkgr6HgBJJ3bgeZHg9cj',
  /** An account holding a USD trust line at that ledger. */
  lineHolder: 'r9duXXmUuhSs6JxKpPCSh2tPUg9AGvE2cG',
} as const;

const payment = {
  TransactionType: 'Payment',
  Flags: 0,
  Sequence: 62,
  Amount: '10000000000',
  Fee: '10',
  SigningPubKey: '034AADB09CFF4A4804073701EC53C3510CDC95917C2BB0150FB742D0C66E6CEE9E',
  TxnSignature:
    '3045022022EB32AECEF7C644C891C19F87966DF9C62B1F34BABA6BE774325E4BB8E2DD62022100A51437898C28C2B297112DF8131F2BB39EA5FE613487DDD611525F1796264639',
  Account: ledger38129.sender,
  Destination: ledger38129.receiver,
};

const paymentMeta = {
  TransactionIndex: 0,
  AffectedNodes: [
    {
      CreatedNode: {
        LedgerEntryType: 'AccountRoot',
        LedgerIndex: '4C6ACBD635B0F07101F7FA25871B0925F8836155462152172755845CE691C49E',
        NewFields: { Sequence: 1, Balance: '10000000000', Account: ledger38129.receiver },
      },
    },
    {
      ModifiedNode: {
        LedgerEntryType: 'AccountRoot',
        PreviousTxnLgrSeq: 31317,
        PreviousTxnID: '2485FDC606352F1B0785DA5DE96FB9DBAF43EB60ECBB01B7F6FA970F512CDA5F',
        LedgerIndex: 'B33FDD5CF3445E1A7F2BE9B06336BEBD73A5E3EE885D3EF93F7E3E2992E46F1A',
        PreviousFields: { Sequence: 62, Balance: '991481999390' },
        FinalFields: { Flags: 0, Sequence: 63, OwnerCount: 0, Balance: '981481999380', Account: ledger38129.sender },
      },
    },
  ],
  TransactionResult: 'tesSUCCESS',
};

/** The JSON-RPC answers (SPEC units: drops, Ripple-epoch seconds). */
export const rpcExamples = {
  /** jt_getBlockByHash / jt_getBlockByNumber with fullTransactions false. */
  block: {
    ledger: {
      accepted: true,
      account_hash: '2C23D15B6B549123FB351E4B5CDE81C564318EB845449CD43C3EA7953C4DB452',
      close_time: ledger38129.closeTimeRippleEpoch,
      close_time_human: '2013-Jan-02 06:43:20',
      close_time_resolution: 10,
      closed: true,
      hash: ledger38129.hash,
      ledger_hash: ledger38129.hash,
      ledger_index: '38129',
      parent_hash: '3401E5B2E5D3A53EB0891088A5F2D9364BBB6CE5B37A337D2C0660DAF9C4175E',
      seqNum: '38129',
      totalCoins: '99999999999996310',
      total_coins: '99999999999996310',
      transaction_hash: 'DB83BF807416C5B3499A73130F843CF615AB8E797D79FE7D330ADF1BFA93951A',
      transactions: [ledger38129.paymentHash],
    },
    ledger_hash: ledger38129.hash,
    ledger_index: ledger38129.index,
    validated: true,
  },
  /** jt_getTransactionByHash and the by-index methods. */
  transaction: {
    ...payment,
    date: ledger38129.closeTimeRippleEpoch,
    hash: ledger38129.paymentHash,
    inLedger: ledger38129.index,
    ledger_hash: ledger38129.hash,
    ledger_index: ledger38129.index,
    validated: true,
  },
  /** jt_getTransactionReceipt. */
  receipt: { ...paymentMeta, hash: ledger38129.paymentHash, delivered_amount: '10000000000' },
  /** jt_getBalance of the line holder at ledger 38129. */
  balance: {
    account: ledger38129.lineHolder,
    balance: '9999999990',
    coins: [
      {
        account: 'r9aRw8p1jHtR9XhDAE22TjtM7PdupNXhkx',
        balance: '1',
        currency: 'USD',
        limit: '10',
        limit_peer: '0',
        no_ripple: false,
        quality_in: 0,
        quality_out: 0,
      },
    ],
    ledger_hash: ledger38129.hash,
    ledger_index: ledger38129.index,
    validated: true,
  },
  /** jt_getTransactionCount of the sender up to ledger 38129: its Sequence there is 63. */
  senderSentCount: 62,
  /** jt_account of the sender: its entry for the payment. */
  historyEntry: {
    amount: '10000000000',
    date: '2013-01-02T06:43:20+00:00',
    from_address: ledger38129.sender,
    hash: ledger38129.paymentHash,
    to_address: ledger38129.receiver,
    type: 'Payment',
  },
};

/** Signed with the devnet genesis account's key (secp256k1, seed snoPBrXtMeMyMHUVTgbuqAfg1SUTb). */
export const genesisSigned = {
  address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
  publicKey: '0330E7FC9D56BB25D6893BA3F317AE5BCF33B3291BD63DB32654A313222F7FD020',
  /** A payment of 1 000 000 drops to the sender of ledger 38129, fee 12 drops, Sequence 1, LastLedgerSequence 25. */
  payment: {
    request: { from: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh', to: ledger38129.sender, value: '1000000', fee: '12' },
    blob: '12000022000000002400000001201B000000196140000000000F424068400000000000000C73210330E7FC9D56BB25D6893BA3F317AE5BCF33B3291BD63DB32654A313222F7FD02074473045022100B61D8D39B8642371DF00C0198948B656B45C2C9174F3A75AFFFB155ACBBE9B9E02205BD872587931BA42A254873A2ACABC1C95D2574993250016C763111EC834D5B28114B5F762798A53D543A014CAF8B297CFF8F2F937E88314550FC62003E785DC231A1058A05E56E3F09CF4E6',
    hash: '38FA0226E27D0391DEE7F3B1A4D31BF1747EA6B77B0A92D779B37135F317DE14',
  },
  /** jt_sign of the message "hello" (hex 68656c6c6f) on the xrpl chain. */
  message: {
    hex: '0x68656c6c6f',
    signature: '0x3045022100fd5056d5f22453e4ec455afd1f7ee05e945d084145e440752a2b3b94e3402a2102205f3c13fc60db1b2d8ff8d2ef6b26641f3096d1e2a8cc80776ec0994b3cd6c5ab',
  },
} as const;

/** The REST answers (Unix seconds, ISO 8601 dates, native amounts in units and in drops). */
export const restExamples = {
  /** GET /v1/ledgers/38129?transactions=true */
  ledger: {
    ledger_hash: ledger38129.hash,
    ledger_index: ledger38129.index,
    parent_hash: '3401E5B2E5D3A53EB0891088A5F2D9364BBB6CE5B37A337D2C0660DAF9C4175E',
    total_coins: '99999999999996310',
    close_time: ledger38129.closeTimeUnix,
    close_time_human: '2013-Jan-02 06:43:20',
    close_time_iso: '2013-01-02T06:43:20+00:00',
    close_time_resolution: 10,
    close_flags: 0,
    parent_close_time: ledger38129.closeTimeUnix,
    accounts_hash: '2C23D15B6B549123FB351E4B5CDE81C564318EB845449CD43C3EA7953C4DB452',
    transactions_hash: 'DB83BF807416C5B3499A73130F843CF615AB8E797D79FE7D330ADF1BFA93951A',
    transaction_count: 1,
    transactions: [ledger38129.paymentHash],
  },
  /** GET /v1/transactions/{hash} */
  transaction: {
    hash: ledger38129.paymentHash,
    ledger_index: ledger38129.index,
    ledger_hash: ledger38129.hash,
    date: '2013-01-02T06:43:20+00:00',
    tx: payment,
    meta: paymentMeta,
  },
  /** GET /v1/accounts/{line holder}/balances?ledger=38129 */
  balances: {
    account: ledger38129.lineHolder,
    ledger_index: ledger38129.index,
    ledger_hash: ledger38129.hash,
    validated: true,
    balances: [
      { currency: 'XRP', value: '9999.99999', drops: '9999999990' },
      { currency: 'USD', counterparty: 'r9aRw8p1jHtR9XhDAE22TjtM7PdupNXhkx', value: '1' },
    ],
  },
  /** GET /v1/accounts/{sender}/payments: the payment of ledger 38129. */
  payment: {
    hash: ledger38129.paymentHash,
    ledger_index: ledger38129.index,
    date: '2013-01-02T06:43:20+00:00',
    source: ledger38129.sender,
    destination: ledger38129.receiver,
    currency: 'XRP',
    amount: '10000',
    drops: '10000000000',
    result: 'tesSUCCESS',
  },
};
