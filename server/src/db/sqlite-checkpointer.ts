import { Worker } from 'node:worker_threads';

/**
 * WAL checkpoints on a thread of their own. SQLite's automatic checkpoint runs inside the commit that
 * crosses `wal_autocheckpoint` pages, on the event loop: under relay load one commit in about sixty
 * took 12–16 ms (copying the WAL into the database file, two fsyncs), which made most of the relay's
 * p99. A PASSIVE checkpoint from another connection copies what it can without blocking the writer.
 *
 * Under steady writes a PASSIVE checkpoint never finds the WAL whole (frames arrive while it copies),
 * so the writer never starts the WAL over, it grows to the fallback size and the writer's own
 * checkpoint runs inside a commit after all (10–30 ms, about once a second at c=1). Once the WAL holds
 * `restartPages`, a RESTART checkpoint copies the few frames PASSIVE left, holding writers off for
 * that moment, and the WAL starts over. The ledger does not sleep on that lock on the event loop: its
 * transaction is tried again shortly (see SqliteLedger).
 */
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const Sqlite = require(workerData.driver);
const database = new Sqlite(workerData.file);
const { minMs, maxMs, targetPages, restartPages, restartWaitMs } = workerData;
// A RESTART waits this long for the writer's transaction to end (a commit takes well under it).
database.pragma('busy_timeout = ' + restartWaitMs);
let delay = minMs;
let lastLog = 0;
let timer;
const checkpoint = () => {
  let behind = false;
  try {
    let [result] = database.pragma('wal_checkpoint(PASSIVE)');
    if (result.busy === 0 && result.log >= restartPages) {
      [result] = database.pragma('wal_checkpoint(RESTART)');
    }
    // Busy: another checkpoint, or the writer starting the WAL over (log -1); the next round will do.
    if (result.log < 0) throw new Error('busy');
    behind = result.busy === 0 && result.checkpointed < result.log;
    // Each page a checkpoint copies costs a write, and hot pages change between checkpoints: wait
    // for about targetPages new pages, as the writer's own checkpoint did, rather than copy each
    // page over and over.
    // Pages written since the last round (the WAL counts from zero again once the writer restarted it).
    const fresh = result.log >= lastLog ? result.log - lastLog : result.log;
    lastLog = result.log;
    const pagesPerMs = Math.max(fresh, 1) / delay;
    delay = Math.min(maxMs, Math.max(minMs, targetPages / pagesPerMs));
  } catch {
    // Locked for a moment: the next round will do.
  }
  timer = setTimeout(checkpoint, behind ? 0 : delay);
};
timer = setTimeout(checkpoint, delay);
parentPort.once('message', () => {
  clearTimeout(timer);
  database.close();
  parentPort.close();
});
`;

/**
 * The checkpointer's rhythm: about as many pages per checkpoint as SQLite's automatic checkpoint
 * (1,000), looked at least every second and at most every 20 ms; the WAL started over once it holds
 * 2,000 pages.
 */
const CHECKPOINT_CADENCE = {
  targetPages: 1_000,
  minMs: 20,
  maxMs: 1_000,
  restartPages: 2_000,
  restartWaitMs: 100,
};

/**
 * Pages after which the writer checkpoints by itself after all (the checkpointer's thread stopped or
 * fell far behind), so that the WAL cannot grow without bound.
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 5_000;

/**
 * Starts checkpointing `file`'s WAL on a worker thread; `stop` ends it (the process may exit
 * meanwhile), and `stopped` settles once its connection is closed and its thread gone.
 */
export function startCheckpointer(
  file: string,
  driverPath: string,
): { stop(): void; readonly stopped: Promise<void> } {
  const worker = new Worker(CHECKPOINTER, {
    eval: true,
    workerData: { file, driver: driverPath, ...CHECKPOINT_CADENCE },
  });
  worker.unref();
  // Without the checkpointer the writer's fallback checkpoint still bounds the WAL: nothing is lost.
  worker.on('error', () => {});
  const stopped = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const stop = () => {
    // Whoever waits for `stopped` keeps the process alive until it is.
    worker.ref();
    worker.postMessage('stop');
  };
  return { stop, stopped };
}
