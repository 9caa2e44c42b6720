import { describe, expect, it } from 'vitest';
import { serviceNames } from '../services';
import { serviceEnv, serviceExecArgv } from './child';

describe('serviceEnv', () => {
  const nodeEnv = {
    PATH: '/usr/bin',
    LOG_LEVEL: 'info',
    LEDGER_NODE_PASSWORD: 'keystore passphrase',
    PGPASSWORD: 'database password',
    PGPASSFILE: '/secrets/pgpass',
    PGUSER: 'ledger',
    PGSSLMODE: 'require',
  };

  it('gives the PG* environment (the database password) to the services that connect to PostgreSQL only', () => {
    const holding = serviceNames.filter((name) => serviceEnv(name, nodeEnv).PGPASSWORD !== undefined);
    expect(holding).toEqual(['ledger-store', 'submission', 'sync']);
    for (const name of serviceNames.filter((service) => !holding.includes(service))) {
      expect(Object.keys(serviceEnv(name, nodeEnv)).filter((key) => key.startsWith('PG'))).toEqual([]);
    }
    expect(serviceEnv('ledger-store', nodeEnv)).toEqual({ PATH: '/usr/bin', LOG_LEVEL: 'info', PGPASSWORD: 'database password', PGPASSFILE: '/secrets/pgpass', PGUSER: 'ledger', PGSSLMODE: 'require' });
  });

  it('gives the keystore passphrase to the keystore only, and every service the rest of the node environment', () => {
    expect(serviceNames.filter((name) => serviceEnv(name, nodeEnv).LEDGER_NODE_PASSWORD !== undefined)).toEqual(['keystore']);
    expect(serviceEnv('facade', nodeEnv)).toEqual({ PATH: '/usr/bin', LOG_LEVEL: 'info' });
    expect(serviceEnv('keystore', nodeEnv)).toEqual({ PATH: '/usr/bin', LOG_LEVEL: 'info', LEDGER_NODE_PASSWORD: 'keystore passphrase' });
  });
});

describe('serviceExecArgv', () => {
  it("keeps the node's own Node.js flags and sizes the young generation as Node.js 20 did", () => {
    expect(serviceExecArgv(['--import', 'tsx'], '')).toEqual(['--import', 'tsx', '--max-semi-space-size=16']);
    expect(serviceExecArgv([], '--enable-source-maps')).toEqual(['--max-semi-space-size=16']);
  });

  it('leaves the size to the node when its flags or NODE_OPTIONS set one', () => {
    expect(serviceExecArgv(['--max-semi-space-size=64'], '')).toEqual(['--max-semi-space-size=64']);
    expect(serviceExecArgv([], '--enable-source-maps --max_semi_space_size=32')).toEqual([]);
  });
});
