// The bench's side of loop-delay-probe.ts: restart the servers' histograms when a measured window
// begins, and read them when it ends.
import fs from 'node:fs';
import path from 'node:path';

export interface LoopDelay {
  /** ms by which the loop's timers ran late: median, 99th percentile, worst. */
  p50: number;
  p99: number;
  max: number;
  /** How many processes reported (a cluster's primary and workers each report). */
  processes: number;
}

interface ProbeReport {
  pid: number;
  at: number;
  samples: number;
  p50: number;
  p99: number;
  max: number;
}

export class LoopDelayProbes {
  constructor(private readonly dir: string) {}

  /** The env that turns the probe on in a server started with `--import <probe>`. */
  env(resolutionMs: number): Record<string, string> {
    return { BENCH_LOOP_DELAY_DIR: this.dir, BENCH_LOOP_DELAY_RESOLUTION: String(resolutionMs) };
  }

  /** Those of the processes that carry the probe. */
  private probed(pids: number[]): number[] {
    return pids.filter((id) => fs.existsSync(this.file(id)));
  }

  private file(pid: number) {
    return path.join(this.dir, `${pid}.json`);
  }

  private read(pid: number): ProbeReport | undefined {
    try {
      return JSON.parse(fs.readFileSync(this.file(pid), 'utf8')) as ProbeReport;
    } catch {
      return undefined;
    }
  }

  private signal(pids: number[]): void {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGUSR2');
      } catch {
        // gone meanwhile
      }
    }
  }

  /** Starts the probed processes' histograms over (their reports are not waited for). */
  reset(pids: number[]): void {
    this.signal(this.probed(pids));
  }

  /** Each probed process's delay since the last reset; per statistic, the worst process's. */
  async collect(processes: number[]): Promise<LoopDelay | undefined> {
    const pids = this.probed(processes);
    const asked = Date.now();
    this.signal(pids);
    const answers: ProbeReport[] = [];
    const deadline = asked + 3000;
    for (const id of pids) {
      for (;;) {
        const report = this.read(id);
        if (report && report.at >= asked) {
          answers.push(report);
          break;
        }
        if (Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    // A process asked again before its timer ran once since the last reading answers, with no delay to tell.
    const reports = answers.filter((report) => report.samples > 0);
    if (reports.length === 0) return undefined;
    const worst = (key: 'p50' | 'p99' | 'max') => Math.max(...reports.map((report) => report[key]));
    return { p50: worst('p50'), p99: worst('p99'), max: worst('max'), processes: answers.length };
  }
}
