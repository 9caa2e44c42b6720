import { stringFlag, type FlagGroup } from '../flag';

export const securityOptions: FlagGroup = {
  title: 'API security',
  flags: [
    stringFlag({
      name: 'rpc_token_file',
      description:
        'File holding a bearer token; when set, jt_sign, jt_signTransaction and jt_sendTransaction need "Authorization: Bearer <token>" (without it they are served on a loopback -rpcaddr only)',
      default: undefined,
      valueName: 'FILE',
    }),
  ],
};
