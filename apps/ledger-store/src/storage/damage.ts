/**
 * Whether a database's files make one whole, checked before ledger-store opens it for writing (a
 * read-write open deletes the table files the MANIFEST does not list, and with them the evidence).
 * The binding opens RocksDB with paranoid_checks off, so RocksDB itself neither checks table file
 * sizes at open nor notices a MANIFEST older than the files beside it: a store cut mid-write or
 * copied while it was written would be served, wrong, until some read met the damage.
 */
import { existsSync } from 'node:fs';
import { link, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Bucket, bucketRange } from './buckets';
import { iterate, openHandle, promised, repair, type RocksDb } from './rocksdbBinding';

/** How the database at `location` is damaged, in words for the operator; undefined when it is whole (or new). */
export async function damageOf(location: string): Promise<string | undefined> {
  if (!existsSync(path.join(location, 'CURRENT'))) return undefined;
  // A database RocksDB cannot open at all is refused by the read-write open, with RocksDB's reason.
  const db = await openHandle(location, { readOnly: true, writeBufferSize: 4 << 20 }).catch(() => undefined);
  if (!db) return undefined;
  try {
    const live = liveTableFiles(db);
    for (const [name, recordedSize] of live) {
      const size = await stat(path.join(location, name)).then(
        (file) => file.size,
        () => undefined,
      );
      if (size === undefined) return `its table file ${name} is missing`;
      if (size !== recordedSize) return `its table file ${name} is ${size} bytes where its MANIFEST records ${recordedSize}`;
    }
    const unlisted = (await readdir(location)).filter((name) => name.endsWith('.sst') && !live.has(name));
    if (unlisted.length === 0) return undefined;
    const lost = await ledgersOnlyIn(unlisted, location, db);
    return lost === 0
      ? undefined
      : `its MANIFEST is older than its table files: ${lost} ledger headers are in table files it does not list (${unlisted.slice(0, 5).join(', ')}${unlisted.length > 5 ? ', …' : ''})`;
  } finally {
    await promised((cb) => db.close(cb));
  }
}

/** Live table files and the sizes the MANIFEST records: `rocksdb.sstables` lists ` <number>:<size>[…]` per file. */
function liveTableFiles(db: RocksDb): Map<string, number> {
  const files = new Map<string, number>();
  for (const [, fileNumber, size] of db.getProperty('rocksdb.sstables').matchAll(/^\s*(\d+):(\d+)\[/gm)) {
    files.set(`${fileNumber!.padStart(6, '0')}.sst`, Number(size));
  }
  return files;
}

/**
 * Ledger headers held by the unlisted table files and absent from the database. Unlisted files are
 * normal after a crash (a flush or compaction that did not finish, inputs not yet removed) and
 * then hold nothing the database lacks; a ledger header (never deleted once stored) that only
 * they hold is a ledger lost with the MANIFEST's newer records. The files are read through links
 * in a scratch folder beside the database, rebuilt into a database of their own by RocksDB's
 * repair; when that folder cannot be made (a read-only or full disk) the check is not made.
 */
async function ledgersOnlyIn(unlisted: string[], location: string, db: RocksDb): Promise<number> {
  const scratch = await mkdtemp(`${location}.unlisted-`).catch(() => undefined);
  if (scratch === undefined) return 0;
  try {
    // Links fail across mounts (a database directory that is a mount point of its own): no check then.
    const linked = await Promise.all(unlisted.map((name) => link(path.join(location, name), path.join(scratch, name)).then(() => true, () => false)));
    if (!linked.every(Boolean)) return 0;
    await repair(scratch);
    const orphans = await openHandle(scratch, { readOnly: true, writeBufferSize: 4 << 20 });
    try {
      let lost = 0;
      let keys: Buffer[] = [];
      const check = async () => {
        const found = await promised<(Buffer | undefined)[]>((cb) => db.getMany(keys, { asBuffer: true }, cb));
        lost += found.filter((value) => value === undefined).length;
        keys = [];
      };
      for await (const [key] of iterate(orphans, { ...bucketRange(Bucket.ledgerHeader), values: false })) {
        keys.push(key);
        if (keys.length === 1000) await check();
      }
      if (keys.length > 0) await check();
      return lost;
    } finally {
      await promised((cb) => orphans.close(cb));
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
