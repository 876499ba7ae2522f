import type { Change } from '../change-bus';
import { isOurs, type PrimaryMessage, type SharedCall, type WorkerMessage } from './messages';

/** The longest a worker waits for the primary's answer (it answers from memory, in microseconds). */
const ANSWER_WITHIN_MS = 2_000;
/** The longest a change's author waits for the other workers to have applied it (they reload from the database). */
const APPLIED_WITHIN_MS = 2_000;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * A worker's channel to the cluster's primary (Node's IPC): changes to relay to the other workers,
 * and calls on the state the primary keeps for all of them (rate limits, mailed codes).
 */
export class PrimaryLink {
  readonly #calls = new Map<number, Pending>();
  readonly #changes = new Map<number, () => void>();
  #applyChange: (change: Change) => Promise<void> = async () => {};
  #nextId = 1;

  constructor(private readonly port: NodeJS.Process = process) {
    port.on('message', this.#receive);
    port.once('disconnect', () => {
      for (const id of [...this.#calls.keys()]) this.#answer(id, { error: 'the primary process is gone' });
      for (const done of [...this.#changes.values()]) done();
    });
  }

  /**
   * Tells the primary, which tells every other worker; resolves once they all applied it (or
   * after APPLIED_WITHIN_MS, or at once when the primary is gone: the periodic sync catches up).
   */
  sendChange(change: Change): Promise<void> {
    const seq = this.#nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(), APPLIED_WITHIN_MS);
      const done = () => {
        clearTimeout(timer);
        this.#changes.delete(seq);
        resolve();
      };
      this.#changes.set(seq, done);
      if (!this.#send({ switchyard: 'change', change, seq })) done();
    });
  }

  /** How this worker applies another worker's change; the primary hears when it is done. */
  onChange(apply: (change: Change) => Promise<void>): void {
    this.#applyChange = apply;
  }

  call<T>(call: SharedCall): Promise<T> {
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#calls.delete(id);
        reject(new Error(`the primary did not answer within ${ANSWER_WITHIN_MS} ms`));
      }, ANSWER_WITHIN_MS);
      this.#calls.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      if (!this.#send({ switchyard: 'call', id, call })) this.#answer(id, { error: 'the primary is gone' });
    });
  }

  #send(message: WorkerMessage): boolean {
    if (!this.port.connected || !this.port.send) return false;
    this.port.send(message);
    return true;
  }

  readonly #receive = (message: unknown): void => {
    if (!isOurs<PrimaryMessage>(message)) return;
    switch (message.switchyard) {
      case 'change': {
        const { relay } = message;
        this.#applyChange(message.change).finally(() => this.#send({ switchyard: 'applied', relay }));
        break;
      }
      case 'relayed':
        this.#changes.get(message.seq)?.();
        break;
      case 'answer':
        this.#answer(message.id, message);
        break;
    }
  };

  #answer(id: number, answer: { value?: unknown; error?: string }): void {
    const pending = this.#calls.get(id);
    if (!pending) return;
    this.#calls.delete(id);
    clearTimeout(pending.timer);
    if (answer.error !== undefined) pending.reject(new Error(answer.error));
    else pending.resolve(answer.value);
  }
}
