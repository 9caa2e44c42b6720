export {
  MalformedProof,
  parseProofDocument,
  proofLedgerOf,
  type LedgerProof,
  type ProofLedger,
  type ProofList,
  type ProofTree,
  type ProofTreeNode,
  type PublishedListDocument,
  type StateEntry,
  type StateProof,
  type TransactionEntry,
  type TransactionProof,
} from './document';
export {
  assembleStateProof,
  buildStateProof,
  buildTransactionProof,
  type LaterLedger,
  type ProofSource,
  type StateEntriesSource,
  type StateProofSource,
  type TransactionProofSource,
} from './build';
export { proofQuorum, skipListHash, verifyProof, type ProofStep, type ProofStepName, type ProofVerdict, type VerifyProofOptions } from './verify';
