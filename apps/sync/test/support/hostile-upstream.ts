/**
 * The hostile endpoint of the hostile-upstream suite, as a Hostility for the ForgingProxy. Honest
 * until armed; then, from a seeded generator, it forges ledger answers (ledger-forgeries.ts) and
 * the pages of a state download, announces a self-consistent fork on the ledger stream and serves
 * it, withholds validations, withholds, reorders and repeats `ledgerClosed` messages, sends
 * malformed messages, cuts a frame short or announces an oversize one, goes silent, and drops
 * connections.
 *
 * What it counts is what was written to sync's socket ("delivered"), never what it meant to send.
 */
import type { ChainProfile } from '@ledger-node/chain';
import type { WsClient } from './cluster';
import type { ProxyConnection, Hostility, UpstreamMessage } from './forging-proxy';
import { forgeLedgerAnswer, forgeStatePage, forkHeader, randomHash, type BinaryTransaction, type ForgedAnswer, type LedgerForgeryKind } from './ledger-forgeries';

export type JunkKind =
  /** A message cut in the middle of its JSON. */
  | 'truncated_json'
  /** JSON that is not an object. */
  | 'not_an_object'
  /** A ledgerClosed message whose fields are not a ledger's. */
  | 'bad_ledger_closed'
  /** An answer to a request nobody sent. */
  | 'answer_to_nothing'
  /** Bytes that are not text, in a binary frame. */
  | 'binary_garbage'
  /** The answer to the next ledger request replaced by a success without a ledger. */
  | 'answer_without_ledger';

export const junkKinds: readonly JunkKind[] = ['truncated_json', 'not_an_object', 'bad_ledger_closed', 'answer_to_nothing', 'binary_garbage', 'answer_without_ledger'];

export type ForkVariant = 'same parent' | 'other parent';

/** What a fork at the tip announced and served. */
export interface ForkAnnounced {
  ledgerIndex: number;
  ledgerHash: string;
  variant: ForkVariant;
}

type Random = () => number;

/** A WebSocket frame header (server to client: not masked) for a text frame of `length` bytes. */
function frameHeader(length: number): Buffer {
  const header = Buffer.alloc(10);
  header[0] = 0x81; // FIN, text
  header[1] = 127; // a 64-bit length follows
  header.writeBigUInt64BE(BigInt(length), 2);
  return header;
}

function isBinaryLedgerRequest(request: Record<string, any> | undefined): boolean {
  return request?.command === 'ledger' && request.binary === true && request.transactions === true;
}

export class HostileUpstream implements Hostility {
  /** Forged ledger answers written to sync's sockets, by kind (`fork_at_tip` for a served fork). */
  readonly forgedLedgersDelivered = new Map<string, number>();
  /** Forged ledger_data pages written. */
  forgedStatePagesDelivered = 0;
  /** Malformed messages written. */
  junkDelivered = 0;
  /** Frames cut short or announced oversize, written. */
  cutFramesDelivered = 0;
  /** ledgerClosed messages delivered late, twice, or long after. */
  disorderedDelivered = 0;
  /** ledgerClosed messages never delivered. */
  withheldAnnouncements: number[] = [];
  /** validationReceived messages never delivered. */
  withheldValidations = 0;
  /** Connections dropped by the storm. */
  dropsDone = 0;
  /** Forks announced. */
  readonly forks: ForkAnnounced[] = [];
  /** Every ledger and transaction hash a forgery made up (none may ever be stored). */
  readonly forgedLedgerHashes = new Set<string>();
  readonly forgedTxHashes = new Set<string>();
  /** Each delivered forgery, for the log of a failing run. */
  readonly journal: string[] = [];

  private readonly connections = new Set<ProxyConnection>();
  private ledgerForgery: { kind: LedgerForgeryKind; remaining: number; only?: (ledgerIndex: number) => boolean } | undefined;
  private stateForgeries = 0;
  private malformedAnswers = 0;
  private fork: { variant: ForkVariant; announced?: ForkAnnounced & { headerHex: string } } | undefined;
  private disorder: { held?: Record<string, any>; stage: 'hold' | 'release' } | undefined;
  private withholdRemaining = 0;
  private validationsWithheldFor = 0;
  private silent = false;
  private dropsRemaining = 0;
  private storming = false;
  private dropDelayMs: () => number = () => 0;
  private foreign: BinaryTransaction | undefined;
  private readonly recentAnnouncements: Record<string, any>[] = [];
  /** Ledgers announced on a ledger stream as they were (the live follower fetches these with the announced hash). */
  private readonly announced = new Set<number>();

  constructor(
    private readonly profile: ChainProfile,
    private readonly random: Random,
    /** A connection of the test's own to the real upstream, for what a forgery must know first. */
    private readonly upstream: WsClient,
  ) {}

  /** Whether a ledgerClosed message announced this ledger as it is. */
  wasAnnounced(ledgerIndex: number): boolean {
    return this.announced.has(ledgerIndex);
  }

  forgedLedgersOf(kind: string): number {
    return this.forgedLedgersDelivered.get(kind) ?? 0;
  }

  get forgedLedgersTotal(): number {
    let total = 0;
    for (const count of this.forgedLedgersDelivered.values()) total += count;
    return total;
  }

  /** The newest open connection that sync subscribed on (its primary), if any. */
  subscribedConnection(): ProxyConnection | undefined {
    return [...this.connections].filter((connection) => connection.subscribed && connection.isOpen).at(-1);
  }

  /** Everything back to honest: forgeries, holds, silence and drops. */
  honest(): void {
    this.ledgerForgery = undefined;
    this.stateForgeries = 0;
    this.malformedAnswers = 0;
    this.fork = undefined;
    this.withholdRemaining = 0;
    this.validationsWithheldFor = 0;
    this.silent = false;
    this.dropsRemaining = 0;
    this.storming = false;
    const held = this.disorder?.held;
    this.disorder = undefined;
    // A held announcement is let go, not lost.
    if (held) void this.subscribedConnection()?.send(JSON.stringify(held));
  }

  /** Forges the next `count` binary ledger answers (those `only` accepts) by `kind`. */
  forgeLedgers(kind: LedgerForgeryKind, count: number, only?: (ledgerIndex: number) => boolean): void {
    this.ledgerForgery = { kind, remaining: count, only };
  }

  /** Forges the next `count` ledger_data pages. */
  forgeStatePages(count: number): void {
    this.stateForgeries = count;
  }

  /** Announces the next ledger as a self-consistent fork, and serves that fork for its index until honest again. */
  forkAtNextAnnouncement(variant: ForkVariant): void {
    this.fork = { variant };
  }

  /** The fork announced since forkAtNextAnnouncement, once delivered. */
  get forkAnnounced(): ForkAnnounced | undefined {
    const announced = this.fork?.announced;
    return announced && { ledgerIndex: announced.ledgerIndex, ledgerHash: announced.ledgerHash, variant: announced.variant };
  }

  /** Holds the next ledgerClosed back; delivers the one after it, then the held one, then that one again and an old one. */
  disorderNextAnnouncements(): void {
    this.disorder = { stage: 'hold' };
  }

  get disorderDone(): boolean {
    return this.disorder === undefined;
  }

  /** Never delivers the next `count` ledgerClosed messages (the ledgers are still served when asked for). */
  withholdAnnouncements(count: number): void {
    this.withholdRemaining = count;
  }

  get withholdDone(): boolean {
    return this.withholdRemaining === 0;
  }

  /** Withholds the validations of the next `count` ledgers announced (the devnet sends each ledger's validation before its ledgerClosed). */
  withholdValidations(count: number): void {
    this.validationsWithheldFor = count;
  }

  get validationsWithheldDone(): boolean {
    return this.validationsWithheldFor === 0;
  }

  /** Withholds every message on every connection while on. */
  silence(on: boolean): void {
    this.silent = on;
  }

  /** Drops the connections open now and each new one, after a delay, until `count` were dropped. */
  dropConnections(count: number, delayMs: () => number): void {
    this.dropsRemaining = count;
    this.storming = true;
    this.dropDelayMs = delayMs;
    for (const connection of this.connections) this.scheduleDrop(connection);
  }

  get dropsPending(): number {
    return this.dropsRemaining;
  }

  /** Sends malformed messages of these kinds on sync's subscribed connection; how many were written. */
  async injectJunk(kinds: readonly JunkKind[]): Promise<number> {
    const connection = this.subscribedConnection();
    if (!connection) return 0;
    let written = 0;
    for (const kind of kinds) {
      if (kind === 'answer_without_ledger') {
        // Delivered in place of the next ledger answer (counted there).
        this.malformedAnswers++;
        continue;
      }
      if (await connection.send(this.junk(kind))) {
        written++;
        this.junkDelivered++;
        this.journal.push(`junk ${kind} on connection ${connection.id}`);
      }
    }
    return written;
  }

  /** Ends sync's subscribed connection with a frame cut short, or announced larger than sync reads; the connection, or undefined. */
  async cutFrame(kind: 'truncated' | 'oversize'): Promise<ProxyConnection | undefined> {
    const connection = this.subscribedConnection();
    if (!connection) return undefined;
    const payload = Buffer.from(JSON.stringify({ type: 'ledgerClosed', ledger_index: 1, ledger_hash: randomHash(this.random), validated_ledgers: '1' }));
    // Oversize: 100 MiB announced, above sync's 64 MiB limit; only a little of it follows.
    const bytes =
      kind === 'truncated'
        ? Buffer.concat([frameHeader(payload.length), payload.subarray(0, Math.floor(payload.length / 2))])
        : Buffer.concat([frameHeader(100 * 1024 * 1024), Buffer.alloc(64 * 1024, 0x20)]);
    if (await connection.writeRawAndEnd(bytes)) {
      this.cutFramesDelivered++;
      this.journal.push(`${kind} frame on connection ${connection.id}`);
    }
    return connection;
  }

  onConnection(connection: ProxyConnection): void {
    this.connections.add(connection);
    void connection.closed.then(() => this.connections.delete(connection));
    this.scheduleDrop(connection);
  }

  async onMessage(message: UpstreamMessage, connection: ProxyConnection): Promise<boolean> {
    if (this.silent) return true;
    const { json, request } = message;
    if (json === undefined) return false;
    if (json.type === 'validationReceived' && this.validationsWithheldFor > 0) {
      this.withheldValidations++;
      this.journal.push(`validation of ledger ${json.ledger_index} withheld`);
      return true;
    }
    if (json.type === 'ledgerClosed') {
      if (this.validationsWithheldFor > 0) this.validationsWithheldFor--;
      return this.onLedgerClosed(json, connection);
    }
    if (json.type !== 'response' || json.status !== 'success' || !request) return false;
    if (isBinaryLedgerRequest(request)) return this.onLedgerAnswer(json, request, connection);
    if (request.command === 'ledger_data' && this.stateForgeries > 0) {
      const forged = forgeStatePage(json, { profile: this.profile, random: this.random });
      if (!forged) return false;
      this.stateForgeries--;
      if (await connection.send(JSON.stringify(forged.answer))) {
        this.forgedStatePagesDelivered++;
        this.journal.push(`state page of ledger ${json.result.ledger_index}: ${forged.variant}`);
      }
      return true;
    }
    return false;
  }

  private async onLedgerClosed(message: Record<string, any>, connection: ProxyConnection): Promise<boolean> {
    if (this.withholdRemaining > 0) {
      this.withholdRemaining--;
      this.withheldAnnouncements.push(Number(message.ledger_index));
      this.journal.push(`announcement of ledger ${message.ledger_index} withheld`);
      return true;
    }
    if (this.fork && !this.fork.announced) {
      const ledgerIndex = Number(message.ledger_index);
      const real = await this.upstream.request('ledger', { ledger_index: ledgerIndex, binary: true });
      const forged = forkHeader(real.result.ledger.ledger_data, this.fork.variant, this.random);
      if (!(await connection.send(JSON.stringify({ ...message, ledger_hash: forged.ledgerHash })))) return true;
      this.fork.announced = { ledgerIndex, ledgerHash: forged.ledgerHash, headerHex: forged.headerHex, variant: this.fork.variant };
      this.forks.push({ ledgerIndex, ledgerHash: forged.ledgerHash, variant: this.fork.variant });
      this.forgedLedgerHashes.add(forged.ledgerHash);
      this.journal.push(`fork (${this.fork.variant}) announced at ledger ${ledgerIndex}: ${forged.ledgerHash}`);
      return true;
    }
    if (this.disorder) return this.onDisorder(message, connection);
    this.recentAnnouncements.push(message);
    if (this.recentAnnouncements.length > 10) this.recentAnnouncements.shift();
    this.announced.add(Number(message.ledger_index));
    return false;
  }

  private async onDisorder(message: Record<string, any>, connection: ProxyConnection): Promise<boolean> {
    const disorder = this.disorder!;
    if (disorder.stage === 'hold') {
      disorder.held = message;
      disorder.stage = 'release';
      this.journal.push(`announcement of ledger ${message.ledger_index} held back`);
      return true;
    }
    const old = this.recentAnnouncements[0];
    const late = [message, disorder.held!, message, ...(old ? [old] : [])];
    this.disorder = undefined;
    for (const [position, announcement] of late.entries()) {
      if ((await connection.send(JSON.stringify(announcement))) && position > 0) this.disorderedDelivered++;
    }
    this.journal.push(`announcements delivered as ${late.map((announcement) => announcement.ledger_index).join(', ')}`);
    return true;
  }

  private async onLedgerAnswer(answer: Record<string, any>, request: Record<string, any>, connection: ProxyConnection): Promise<boolean> {
    const ledgerIndex = Number(request.ledger_index);
    const transactions: BinaryTransaction[] = answer.result?.ledger?.transactions ?? [];
    const fork = this.fork?.announced;
    if (fork && fork.ledgerIndex === ledgerIndex) {
      const forged = { ...answer, result: { ...answer.result, ledger_hash: fork.ledgerHash, ledger: { ...answer.result.ledger, ledger_data: fork.headerHex } } };
      if (await connection.send(JSON.stringify(forged))) this.countForged('fork_at_tip', `fork of ledger ${ledgerIndex} served`, connection);
      return true;
    }
    if (this.malformedAnswers > 0) {
      this.malformedAnswers--;
      if (await connection.send(JSON.stringify({ id: answer.id, type: 'response', status: 'success', result: { ledger_index: ledgerIndex } }))) {
        this.junkDelivered++;
        this.journal.push(`answer without a ledger for ledger ${ledgerIndex} on connection ${connection.id}`);
      }
      return true;
    }
    const armed = this.ledgerForgery;
    let forged: ForgedAnswer | undefined;
    if (armed && armed.remaining > 0 && (!armed.only || armed.only(ledgerIndex))) {
      forged = forgeLedgerAnswer(armed.kind, answer, { profile: this.profile, random: this.random, foreign: this.foreign });
    }
    // Kept from an honest answer, to be added to another ledger.
    if (transactions.length > 0) this.foreign = transactions[Math.floor(this.random() * transactions.length)];
    if (!forged || !armed) return false;
    armed.remaining--;
    for (const hash of forged.ledgerHashes) this.forgedLedgerHashes.add(hash);
    for (const hash of forged.txHashes) this.forgedTxHashes.add(hash);
    if (await connection.send(JSON.stringify(forged.answer))) this.countForged(armed.kind, `${armed.kind} (${forged.variant}) of ledger ${ledgerIndex}`, connection);
    return true;
  }

  private countForged(kind: string, what: string, connection: ProxyConnection): void {
    this.forgedLedgersDelivered.set(kind, this.forgedLedgersOf(kind) + 1);
    this.journal.push(`${what} on connection ${connection.id}`);
  }

  private scheduleDrop(connection: ProxyConnection): void {
    if (this.dropsRemaining <= 0) return;
    this.dropsRemaining--;
    setTimeout(() => {
      if (!connection.isOpen) {
        // Closed by sync first: the next connection is dropped in its place.
        if (this.storming) this.dropsRemaining++;
        return;
      }
      connection.terminate();
      this.dropsDone++;
      this.journal.push(`connection ${connection.id} dropped`);
    }, this.dropDelayMs());
  }

  private junk(kind: Exclude<JunkKind, 'answer_without_ledger'>): string | Buffer {
    switch (kind) {
      case 'truncated_json':
        return JSON.stringify({ type: 'ledgerClosed', ledger_index: 7, ledger_hash: randomHash(this.random) }).slice(0, 30);
      case 'not_an_object':
        return JSON.stringify([1, 'ledgerClosed', null]);
      case 'bad_ledger_closed':
        return JSON.stringify({ type: 'ledgerClosed', ledger_index: 'tomorrow', ledger_hash: 'not a hash' });
      case 'answer_to_nothing':
        return JSON.stringify({ id: 4_000_000_000, type: 'response', status: 'success', result: {} });
      case 'binary_garbage':
        return Buffer.from(Array.from({ length: 64 }, () => 0x80 + Math.floor(this.random() * 0x40)));
    }
  }
}
