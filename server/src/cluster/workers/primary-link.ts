import type { Change } from '../change-bus';
import { isOurs, type PrimaryMessage, type SharedCall, type WorkerMessage } from './messages';

/** The longest a worker waits for the primary's answer (it answers from memory, in microseconds). */
const ANSWER_WITHIN_MS = 2_000;

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
  readonly #pending = new Map<number, Pending>();
  readonly #changeHandlers: Array<(change: Change) => void> = [];
  #nextId = 1;

  constructor(private readonly port: NodeJS.Process = process) {
    port.on('message', this.#receive);
    port.once('disconnect', () => this.#failAll('the primary process is gone'));
  }

  /** Tells the primary, which tells every other worker. */
  sendChange(change: Change): void {
    this.#send({ switchyard: 'change', change });
  }

  onChange(handler: (change: Change) => void): void {
    this.#changeHandlers.push(handler);
  }

  call<T>(call: SharedCall): Promise<T> {
    const id = this.#nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`the primary did not answer within ${ANSWER_WITHIN_MS} ms`));
      }, ANSWER_WITHIN_MS);
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      if (!this.#send({ switchyard: 'call', id, call })) this.#settle(id, { error: 'the primary is gone' });
    });
  }

  #send(message: WorkerMessage): boolean {
    if (!this.port.connected || !this.port.send) return false;
    this.port.send(message);
    return true;
  }

  readonly #receive = (message: unknown): void => {
    if (!isOurs<PrimaryMessage>(message)) return;
    if (message.switchyard === 'change') {
      for (const handler of this.#changeHandlers) handler(message.change);
    } else this.#settle(message.id, message);
  };

  #settle(id: number, answer: { value?: unknown; error?: string }): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    if (answer.error !== undefined) pending.reject(new Error(answer.error));
    else pending.resolve(answer.value);
  }

  #failAll(reason: string): void {
    for (const id of [...this.#pending.keys()]) this.#settle(id, { error: reason });
  }
}
