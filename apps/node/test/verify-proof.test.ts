/**
 * `ledger-node verify-proof FILE`: the steps printed, exit 0 for a proof that holds, 1 for one
 * refused (the failed step named), 2 for bad usage or a file that is not a proof document.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  devnetNetworkKeys,
  getProfile,
  hashLedgerHeader,
  ledgerHeaderFromJson,
  signManifest,
  signPublishedList,
  signValidation,
  stateEntryFromLedgerJson,
  StateTree,
} from '@ledger-node/chain';
import { buildStateProof } from '@ledger-node/proof';
import { cliEntry, readFixture, tempDir } from '@ledger-node/test-utils';

const XRPLF_MAINNET = 'ED45D1840EE724BE327ABE9146503D5848EFD5F38B6D5FEDE71E80ACCE5E6E738B';
const mainnet = 'xrpl/trust/xpop-mainnet-83576782.json';
const dir = tempDir('verify-proof-');
afterAll(() => dir.remove());

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cliEntry(), ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function write(name: string, content: string): string {
  const file = path.join(dir.dir, name);
  writeFileSync(file, content);
  return file;
}

function fixtureFile(name: string): string {
  return write(path.basename(name), JSON.stringify(readFixture(name)));
}

describe('ledger-node verify-proof', () => {
  it('prints every step of a recorded mainnet XPOP and exits 0', () => {
    const { status, stdout, stderr } = run('verify-proof', fixtureFile(mainnet), '-validator_list_keys', XRPLF_MAINNET);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.map((line) => line.split(/\s+/).slice(0, 2).join(' '))).toEqual([
      'ok ledger',
      'ok list',
      'ok list_in_force',
      'ok manifests',
      'ok validations',
      'ok quorum',
      'ok transaction',
      'verify-proof: ' + path.join(dir.dir, 'xpop-mainnet-83576782.json'),
    ]);
    expect(stdout).toContain('33 of the 35 listed validators validated ledger 83576782 (quorum 28, 80% rounded up)');
    expect(lines[lines.length - 1]).toMatch(/holds: every step verified$/);
  });

  it("trusts the -network_id network's publishers when no key is given", () => {
    const testnet = fixtureFile('xrpl/trust/xpop-testnet-39419653.json');
    expect(run('verify-proof', testnet, '-network_id', '1').status).toBe(0);
    const mainnetOnly = run('verify-proof', testnet, '-network_id', '0');
    expect(mainnetOnly.status).toBe(1);
    expect(mainnetOnly.stdout).toMatch(/^FAIL {2}list /m);
  });

  it("prints each state entry's step of a state proof signed by a devnet's validators, under its publisher's key", () => {
    const xrpl = getProfile('xrpl');
    const { ledger } = readFixture<{ ledger: Record<string, unknown> & { accountState: Record<string, unknown>[] } }>('xrpl/ledgers/mainnet/38129-full-state.json');
    const header = ledgerHeaderFromJson(ledger);
    const state = new StateTree();
    for (const entry of ledger.accountState) {
      const { index, blob } = stateEntryFromLedgerJson(entry, xrpl);
      state.set(index, blob);
    }
    const keys = devnetNetworkKeys();
    const validators = keys.validators.map((holder) => ({ masterKey: holder.master.publicKey, manifest: Buffer.from(signManifest({ master: holder.master, signing: holder.signing, sequence: 1 }), 'hex').toString('base64') }));
    const list = signPublishedList({
      manifest: signManifest({ master: keys.publisher.master, signing: keys.publisher.signing, sequence: 1 }),
      signing: keys.publisher.signing,
      publisherKey: keys.publisher.master.publicKey,
      blobs: [{ sequence: 1, expiration: header.closeTime + 100, validators }],
      version: 1,
    });
    const validated = { ledgerIndex: header.ledgerIndex, ledgerHash: hashLedgerHeader(header), signingTime: header.closeTime };
    const validations = keys.validators.map((holder) => signValidation(xrpl, holder.signing, validated));
    const entryKeys = [...state.entries()].slice(0, 2).map((entry) => entry.index);
    const file = write('state.json', JSON.stringify(buildStateProof({ profile: xrpl, header, state, keys: entryKeys, validations, list })));
    const { status, stdout } = run('verify-proof', file, '-validator_list_keys', keys.publisher.master.publicKey);
    expect(status).toBe(0);
    const stateLines = stdout.split('\n').filter((line) => /^ok {4}state /.test(line));
    expect(stateLines.map((line) => line.split(/\s+/)[3])).toEqual(entryKeys);
    expect(stdout).toContain('5 of the 5 listed validators validated ledger 38129 (quorum 4');
  });

  it('exits 1 naming the failed step when a validation is tampered with', () => {
    const xpop = readFixture<{ validation: { data: Record<string, string> } }>(mainnet);
    const [name, blob] = Object.entries(xpop.validation.data)[0]!;
    const tampered = blob.slice(0, -10) + (blob[blob.length - 10] === '0' ? '1' : '0') + blob.slice(-9);
    const file = write('tampered.json', JSON.stringify({ ...xpop, validation: { ...xpop.validation, data: { ...xpop.validation.data, [name]: tampered } } }));
    const { status, stdout } = run('verify-proof', file, '-validator_list_keys', XRPLF_MAINNET);
    expect(status).toBe(1);
    expect(stdout).toMatch(new RegExp(`^FAIL {2}validations +1 of 33 validations fail: ${name}: its signature does not verify$`, 'm'));
    expect(stdout.trimEnd().split('\n').pop()).toBe(`verify-proof: ${file} is refused: validations failed`);
  });

  it('exits 2 with one line naming the field for a file that is not a proof document', () => {
    const xpop = readFixture<{ ledger: Record<string, unknown> }>(mainnet);
    const { coins: _coins, ...ledger } = xpop.ledger;
    const missing = write('missing.json', JSON.stringify({ ...xpop, ledger }));
    const result = run('verify-proof', missing, '-validator_list_keys', XRPLF_MAINNET);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`ledger-node: verify-proof: ${missing} is not a proof document: ledger.coins is missing\n`);

    const broken = write('broken.json', '{"ledger": ');
    const notJson = run('verify-proof', broken, '-validator_list_keys', XRPLF_MAINNET);
    expect(notJson.status).toBe(2);
    expect(notJson.stderr).toMatch(new RegExp(`^ledger-node: verify-proof: ${broken} is not JSON \\(.+\\)\\n$`));
    expect(notJson.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 for bad usage: no file, no key known for the chain, a key that is not one', () => {
    expect(run('verify-proof').stderr).toBe('ledger-node: verify-proof needs the proof file: ledger-node verify-proof FILE\n');
    const jingtum = run('verify-proof', fixtureFile(mainnet), '-chain', 'jingtum');
    expect(jingtum.status).toBe(2);
    expect(jingtum.stderr).toMatch(/needs -validator_list_keys KEY\[,KEY\]: no published list is known for Jingtum/);
    const badKey = run('verify-proof', fixtureFile(mainnet), '-validator_list_keys', 'ED00');
    expect(badKey.status).toBe(2);
    expect(badKey.stderr).toMatch(/^ledger-node: invalid value "ED00" for flag -validator_list_keys/);
  });

  it('has a help page of its own, and the main help names it', () => {
    const own = run('verify-proof', '--help');
    expect(own.status).toBe(0);
    expect(own.stdout).toMatch(/^Usage: ledger-node verify-proof FILE/);
    for (const step of ['ledger_proof', 'list_in_force', 'manifests', 'validations', 'quorum', 'transaction', 'state']) expect(own.stdout).toContain(`  ${step} `);
    expect(run('--help').stdout).toContain('ledger-node verify-proof FILE');
  });
});
