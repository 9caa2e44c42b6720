import { describe, expect, it } from 'vitest';
import { StoreRole } from '@ledger-node/contracts';
import { storeNotWritingReason, SyncRole, untilStoreWrites, watchStoreRole, type StoreRoleReader } from './writer-lock';

/** A ledger-store that answers these roles in turn (an Error: it does not answer), then the last one forever. */
function scripted(...answers: (StoreRole | Error)[]): StoreRoleReader & { asked: number } {
  const reader = Object.assign(
    async () => {
      const answer = answers[Math.min(reader.asked++, answers.length - 1)]!;
      if (answer instanceof Error) throw answer;
      return { role: answer, detail: answer === StoreRole.WRITER ? undefined : 'this ledger-store is a standby writer' };
    },
    { asked: 0 },
  );
  return reader;
}

describe('a sync contends for the sync lock only while its ledger-store writes', () => {
  it('waits through a standby and an unanswered ledger-store, saying why, and goes on once it writes', async () => {
    const role = new SyncRole();
    const reader = scripted(new Error('unavailable'), StoreRole.STANDBY, StoreRole.STANDBY, StoreRole.WRITER);
    const seen: (string | undefined)[] = [];
    const watching = setInterval(() => seen.push(role.standby), 1);
    await untilStoreWrites(reader, role, new AbortController().signal, 5);
    clearInterval(watching);
    expect(reader.asked).toBe(4);
    expect(seen).toContain(storeNotWritingReason('this ledger-store is a standby writer'));
  });

  it('goes on at once with a ledger-store that reports no role (RocksDB, or an older one)', async () => {
    const reader = scripted(StoreRole.UNSPECIFIED);
    await untilStoreWrites(reader, new SyncRole(), new AbortController().signal, 5);
    expect(reader.asked).toBe(1);
  });

  it('stops waiting when stopped', async () => {
    const stop = new AbortController();
    const waiting = untilStoreWrites(scripted(StoreRole.STANDBY), new SyncRole(), stop.signal, 5);
    stop.abort();
    await expect(waiting).resolves.toBeUndefined();
  });

  it('gives the lock up once, when its ledger-store answers it no longer writes; not while it does not answer', async () => {
    const reader = scripted(StoreRole.WRITER, new Error('restarting'), new Error('restarting'), StoreRole.STANDBY);
    const calls: (string | undefined)[] = [];
    const stop = watchStoreRole(reader, (detail) => calls.push(detail), 5);
    await new Promise((resolve) => setTimeout(resolve, 100));
    stop();
    expect(calls).toEqual(['this ledger-store is a standby writer']);
  });
});
