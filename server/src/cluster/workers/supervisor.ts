import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { Change } from '../change-bus';
import { isOurs, type WorkerMessage } from './messages';
import type { SharedState } from './shared-state';

/** The environment variable that tells a forked worker its slot (1…N); slot 1 runs the background jobs. */
export const WORKER_SLOT_VARIABLE = 'SWITCHYARD_WORKER';

/** A worker that dies sooner than this after it was started counts as a quick exit (a crash loop). */
const STABLE_AFTER_MS = 10_000;
const FIRST_RESTART_DELAY_MS = 250;
const MOST_RESTART_DELAY_MS = 30_000;

/** How long the primary waits before replacing a worker that died after `quickExits` short lives in a row. */
export function restartDelayMs(quickExits: number): number {
  if (quickExits <= 0) return 0;
  return Math.min(MOST_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** (quickExits - 1));
}

/** A change relayed to other workers, until all of them applied it. */
interface Relay {
  origin: Worker;
  seq: number;
  waiting: Set<Worker>;
}

interface Slot {
  number: number;
  worker: Worker | undefined;
  startedAt: number;
  quickExits: number;
  restart: NodeJS.Timeout | undefined;
}

/**
 * The cluster's primary: forks one worker per slot, replaces those that die (backing off when one
 * dies again and again), relays each worker's changes to the others and answers their calls on the
 * state it keeps for them. It serves no request itself.
 */
export class WorkerSupervisor {
  readonly #slots: Slot[];
  readonly #relays = new Map<number, Relay>();
  /** Workers that serve: a change's author waits for these only (one still starting reads everything afresh). */
  readonly #serving = new Set<Worker>();
  #nextRelay = 1;
  #stopping = false;

  constructor(
    private readonly deps: {
      count: number;
      /** Given to every worker besides the primary's own environment (the session secret). */
      env: Record<string, string>;
      state: SharedState;
      logger: Logger;
    },
  ) {
    this.#slots = Array.from({ length: deps.count }, (_, index) => ({
      number: index + 1,
      worker: undefined,
      startedAt: 0,
      quickExits: 0,
      restart: undefined,
    }));
  }

  /** Forks every worker; resolves once all listen, rejects if one dies before (start-up failed). */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const waiting = new Set(this.#slots);
      const onListening = (worker: Worker) => {
        const slot = this.#slotOf(worker);
        if (slot) waiting.delete(slot);
        if (waiting.size === 0) done();
      };
      const onExit = (worker: Worker, code: number | null, signal: string | null) => {
        done(
          new Error(`worker ${this.#slotOf(worker)?.number} exited at start (${signal ?? `code ${code}`})`),
        );
      };
      const done = (error?: Error) => {
        cluster.off('listening', onListening);
        cluster.off('exit', onExit);
        if (error) reject(error);
        else {
          cluster.on('exit', (worker, code, signal) => this.#onExit(worker, code, signal));
          resolve();
        }
      };
      cluster.on('listening', onListening);
      cluster.on('exit', onExit);
      cluster.on('listening', (worker) => this.#serving.add(worker));
      for (const slot of this.#slots) this.#fork(slot);
    });
  }

  /** Stops every worker with SIGTERM (each settles its calls and exits); answers whether all exited cleanly. */
  async shutdown(): Promise<boolean> {
    this.#stopping = true;
    const exits: Array<Promise<boolean>> = [];
    for (const slot of this.#slots) {
      clearTimeout(slot.restart);
      const worker = slot.worker;
      if (!worker || worker.isDead()) continue;
      exits.push(new Promise((resolve) => worker.once('exit', (code: number | null) => resolve(code === 0))));
      worker.process.kill('SIGTERM');
    }
    const clean = (await Promise.all(exits)).every(Boolean);
    await this.deps.state.close();
    return clean;
  }

  /** A second signal: every worker ends at once, whatever it was doing. */
  kill(): void {
    this.#stopping = true;
    for (const slot of this.#slots)
      if (slot.worker && !slot.worker.isDead()) slot.worker.process.kill('SIGKILL');
  }

  #fork(slot: Slot): void {
    const worker = cluster.fork({ ...this.deps.env, [WORKER_SLOT_VARIABLE]: String(slot.number) });
    slot.worker = worker;
    slot.startedAt = Date.now();
    worker.on('message', (message: unknown) => {
      if (isOurs<WorkerMessage>(message)) this.#onMessage(worker, message);
    });
    // A worker that dies mid-send closes its channel: nothing to do about it here.
    worker.on('error', () => {});
  }

  #onExit(worker: Worker, code: number | null, signal: string | null): void {
    // Its author need not wait for a dead worker: it reads everything afresh when replaced.
    this.#serving.delete(worker);
    for (const [id, relay] of this.#relays) this.#applied(id, relay, worker);
    const slot = this.#slotOf(worker);
    if (!slot || this.#stopping) return;
    slot.worker = undefined;
    slot.quickExits = Date.now() - slot.startedAt < STABLE_AFTER_MS ? slot.quickExits + 1 : 0;
    const delayMs = restartDelayMs(slot.quickExits);
    this.deps.logger.error(
      // Not `worker`/`pid`: those fields say which process wrote a line.
      { slot: slot.number, workerPid: worker.process.pid, code, signal, restartInMs: delayMs },
      `worker ${slot.number} died (${signal ?? `exit code ${code}`}); starting another in ${delayMs} ms`,
    );
    slot.restart = setTimeout(() => {
      slot.restart = undefined;
      if (!this.#stopping) this.#fork(slot);
    }, delayMs);
  }

  #onMessage(from: Worker, message: WorkerMessage): void {
    if (message.switchyard === 'change') {
      this.#relay(from, message.change, message.seq);
      return;
    }
    if (message.switchyard === 'applied') {
      const relay = this.#relays.get(message.relay);
      if (relay) this.#applied(message.relay, relay, from);
      return;
    }
    const { id, call } = message;
    const reply = (answer: { value?: unknown; error?: string }) => {
      if (from.isConnected()) from.send({ switchyard: 'answer', id, ...answer });
    };
    this.deps.state.answer(call).then(
      (value) => reply({ value }),
      (error: unknown) => reply({ error: String(error) }),
    );
  }

  /** Sends a worker's change to every other worker; its author hears once they all applied it. */
  #relay(origin: Worker, change: Change, seq: number): void {
    const id = this.#nextRelay++;
    const relay: Relay = { origin, seq, waiting: new Set() };
    for (const { worker } of this.#slots) {
      if (!worker || worker === origin || !worker.isConnected()) continue;
      if (this.#serving.has(worker)) relay.waiting.add(worker);
      worker.send({ switchyard: 'change', change, relay: id });
    }
    this.#relays.set(id, relay);
    if (relay.waiting.size === 0) this.#applied(id, relay);
  }

  #applied(id: number, relay: Relay, by?: Worker): void {
    if (by) relay.waiting.delete(by);
    if (relay.waiting.size > 0) return;
    this.#relays.delete(id);
    if (relay.origin.isConnected()) relay.origin.send({ switchyard: 'relayed', seq: relay.seq });
  }

  #slotOf(worker: Worker): Slot | undefined {
    return this.#slots.find((slot) => slot.worker === worker);
  }
}
