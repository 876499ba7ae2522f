import type { ChannelTester } from './channel-tester';

interface RunLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * CHANNEL_TEST_FREQUENCY: every channel tested on that period, as "test all" does (the same rules
 * switch channels off and on, with the same notices). One process of a cluster runs it (see WorkerRole);
 * a run still going when the next is due (a manual one, a slow one) is not stacked on.
 */
export class PeriodicChannelTests {
  #timer: NodeJS.Timeout | undefined;
  #run: Promise<void> | undefined;
  readonly #stop = new AbortController();

  constructor(private readonly deps: { tester: ChannelTester; everyMs: number; log?: RunLog }) {}

  start(): void {
    this.#timer = setInterval(() => {
      this.#run ??= this.#testAll().finally(() => {
        this.#run = undefined;
      });
    }, this.deps.everyMs);
    this.#timer.unref();
  }

  /** Stops the timer, and a run going after the channel it is testing. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    this.#stop.abort();
    await this.#run;
  }

  async #testAll(): Promise<void> {
    const { tester, log } = this.deps;
    try {
      log?.info({}, 'testing all channels');
      const ran = await tester.runAll('all', this.#stop.signal);
      log?.info({ ran }, ran ? 'channel test finished' : 'channel test skipped: a run is going');
    } catch (error) {
      log?.error({ err: error }, 'periodic channel test failed');
    }
  }
}
