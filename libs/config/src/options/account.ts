import { booleanFlag, integerFlag, stringFlag, type FlagGroup } from '../flag';
import { MIN_SECRET_LENGTH } from '../secrets';

export const accountOptions: FlagGroup = {
  title: 'Accounts and keystore (ledger-node account list | account generate; serve keystore)',
  flags: [
    stringFlag({
      name: 'nickname',
      description: 'Nickname of the account to generate',
      default: undefined,
      valueName: 'NAME',
      seed: true,
      check: (value) => (/^[A-Za-z0-9_.-]{1,64}$/.test(value) ? undefined : 'must be 1-64 letters, digits, _ . or -'),
    }),
    stringFlag({ name: 'key_type', description: 'Key type of a generated account: secp256k1 or ed25519', default: 'secp256k1', choices: ['secp256k1', 'ed25519'] }),
    stringFlag({ name: 'password_file', description: `File holding the keystore passphrase (${MIN_SECRET_LENGTH}+ characters for a new keystore), mode 0600 or 0400 (else LEDGER_NODE_PASSWORD, else a prompt)`, default: undefined, valueName: 'FILE' }),
    stringFlag({
      name: 'keystore_token_file',
      description: `File holding a token (${MIN_SECRET_LENGTH}+ characters, mode 0600 or 0400) every keystore call must carry, besides the mutual TLS that -keystore_addr HOST:PORT needs`,
      default: undefined,
      valueName: 'FILE',
    }),
    integerFlag({
      name: 'unlock_seconds',
      description: "Seconds the keystore keeps an account's derived key-file key in its memory after a signature, so the next ones skip the scrypt derivation (0: derive for every signature)",
      default: 0,
      min: 0,
      max: 3600,
      valueName: 'SECONDS',
    }),
    booleanFlag({ name: 'json', description: 'Print accounts as JSON', default: false }),
  ],
};
