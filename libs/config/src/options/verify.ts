import { integerFlag, type FlagGroup } from '../flag';

export const verifyOptions: FlagGroup = {
  title: 'State verification (ledger-node verify-state)',
  flags: [
    integerFlag({
      name: 'ledger',
      description: "Ledger whose stored account state verify-state recomputes and compares with the header's account_hash",
      default: undefined,
      min: 1,
      max: 0xffffffff,
      valueName: 'N',
    }),
  ],
};
