import type { ChainProfile, KeyAlgorithm } from '@ledger-node/chain';
import { KeyType, type KeystoreServiceService, type LocalAccount } from '@ledger-node/contracts';
import { InvalidParams, isLedgerNodeError } from '@ledger-node/errors';
import type { Handlers } from '@ledger-node/grpc';
import type { Logger } from '@ledger-node/telemetry';
import type { AccountMetadata } from '../keyfiles/keyFile';
import type { Keystore } from '../keyfiles/keystore';
import { guardTransaction } from '../signing/guard';
import { parseTransactionJson, signMessage, signTransaction } from '../signing/sign';

const keyTypeOf: Record<KeyAlgorithm, KeyType> = { secp256k1: KeyType.SECP256K1, ed25519: KeyType.ED25519 };

function algorithmOf(keyType: KeyType): KeyAlgorithm {
  switch (keyType) {
    case KeyType.UNSPECIFIED:
    case KeyType.SECP256K1:
      return 'secp256k1';
    case KeyType.ED25519:
      return 'ed25519';
    default:
      throw new InvalidParams(`unknown key type ${String(keyType)}`, 'key_type');
  }
}

function toLocalAccount(account: AccountMetadata): LocalAccount {
  return {
    address: account.address,
    nickname: account.nickname ?? '',
    keyType: keyTypeOf[account.keyType],
    createdAtUnixMs: BigInt(Date.parse(account.created)),
  };
}

/**
 * The keystore's gRPC operations. Responses carry addresses, public keys, signatures and signed
 * blobs only; log lines name accounts and files, never a seed, private key or passphrase.
 */
export function keystoreHandlers(keystore: Keystore, profile: ChainProfile, logger: Logger): Handlers<typeof KeystoreServiceService> {
  /** Failures are logged by code and message (ours never hold secrets) and passed on to the caller. */
  const logged = async <T>(operation: string, account: string | undefined, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (isLedgerNodeError(error)) logger.warn({ operation, account, kind: error.kind, code: error.details.data?.code }, error.message);
      throw error;
    }
  };

  return {
    async listAccounts() {
      const { accounts, problems } = keystore.scan();
      for (const problem of problems) logger.warn({ file: problem.file, code: problem.code }, problem.message);
      return { accounts: accounts.map(toLocalAccount) };
    },

    generateAccount(request) {
      return logged('GenerateAccount', request.nickname, async () => {
        const account = await keystore.generate({ nickname: request.nickname, keyType: algorithmOf(request.keyType) });
        logger.info({ address: account.address, nickname: account.nickname, key_type: account.keyType, file: account.file }, 'account generated');
        return { account: toLocalAccount(account) };
      });
    },

    signMessage(request, { caller, signal }) {
      return logged('SignMessage', request.account, async () => {
        const signed = await keystore.withKey(request.account, (key) => signMessage(profile, key, request.message), { caller, signal });
        logger.info({ address: signed.address, message_bytes: request.message.length }, 'message signed');
        return { signature: signed.signature, publicKey: signed.publicKey, address: signed.address };
      });
    },

    signTransaction(request, { caller, signal }) {
      return logged('SignTransaction', request.account, async () => {
        const fields = parseTransactionJson(request.txJson);
        const { address } = keystore.resolve(request.account).document;
        // Refuse before unlocking: a transaction off the allow-list never causes a decryption.
        const checked = guardTransaction(fields, { address });
        const signed = await keystore.withKey(address, (key) => signTransaction(profile, key, fields), { caller, signal });
        logger.info({ address, transaction_type: checked.TransactionType, hash: signed.hash.toString('hex').toUpperCase() }, 'transaction signed');
        return { signedBlob: signed.blob, hash: signed.hash };
      });
    },
  };
}
