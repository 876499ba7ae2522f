import type { UserRow } from '../db/schema';
import { escapeHtml, type MailMessage } from './mail';
import type { OptionsStore } from './options';
import { quotaText } from './quota-text';
import { serverAddress } from './server-address';

/** While a user stays below the threshold, look again this often to notice a top-up (and re-arm). */
const RECHECK_BELOW_MS = 10 * 60 * 1000;
/** Users remembered at most; the oldest are forgotten first (they are simply read again). */
const MAX_WATCHED = 50_000;

interface Watch {
  /** The quota last read from the database, less what was spent since: a close estimate. */
  quota: number;
  /** Below the threshold at the last read (reminded, or already below when first seen). */
  below: boolean;
  checkedAt: number;
}

export interface QuotaReminderDeps {
  options: OptionsStore;
  readUser: (id: number) => Promise<UserRow | undefined>;
  sendMail: (message: MailMessage) => Promise<void>;
  onError?: (error: unknown) => void;
  clock?: () => number;
}

/**
 * Mails a user once when their quota falls below QuotaRemindThreshold, with a link to top up.
 * Told about every spend, it keeps a running estimate per user in memory and reads the database
 * only when the estimate says the user may just have crossed, so the hot path stays free of reads.
 */
export class QuotaReminder {
  readonly #watched = new Map<number, Watch>();
  readonly #reading = new Set<number>();

  constructor(private readonly deps: QuotaReminderDeps) {}

  /** A spend of `amount` was committed for the user. Never throws, never waits. */
  spent(userId: number, amount: number): void {
    const threshold = this.deps.options.number('QuotaRemindThreshold');
    if (!(threshold > 0) || amount <= 0) return;
    const watch = this.#watched.get(userId);
    if (watch) {
      watch.quota -= amount;
      if (watch.quota >= threshold) return;
      if (watch.below && this.#now() - watch.checkedAt < RECHECK_BELOW_MS) return;
    }
    if (this.#reading.has(userId)) return;
    this.#reading.add(userId);
    this.#check(userId, amount, threshold, watch)
      .catch((error: unknown) => this.deps.onError?.(error))
      .finally(() => this.#reading.delete(userId));
  }

  async #check(
    userId: number,
    amount: number,
    threshold: number,
    previous: Watch | undefined,
  ): Promise<void> {
    const user = await this.deps.readUser(userId);
    if (!user) return;
    const quota = Number(user.quota);
    // First sight of this user: judge the crossing by the quota just before this spend.
    const wasAbove = previous ? !previous.below : quota + amount >= threshold;
    const below = quota < threshold;
    this.#remember(userId, { quota, below, checkedAt: this.#now() });
    if (below && wasAbove && user.email) await this.deps.sendMail(this.#message(user.email, quota));
  }

  #remember(userId: number, watch: Watch): void {
    this.#watched.delete(userId);
    if (this.#watched.size >= MAX_WATCHED) {
      const oldest = this.#watched.keys().next();
      if (!oldest.done) this.#watched.delete(oldest.value);
    }
    this.#watched.set(userId, watch);
  }

  #message(email: string, quota: number): MailMessage {
    const { options } = this.deps;
    const systemName = options.get('SystemName');
    const link = `${serverAddress(options)}/topup`;
    return {
      to: email,
      subject: `${systemName} quota reminder`,
      html:
        `<p>Hello,</p><p>Your remaining quota on ${escapeHtml(systemName)} is ${escapeHtml(quotaText(options, quota))}, ` +
        'below the reminder threshold.</p>' +
        `<p>To keep using the service, top up here: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
    };
  }

  #now(): number {
    return (this.deps.clock ?? Date.now)();
  }
}
