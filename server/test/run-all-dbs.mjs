// Runs the server suite once per database: SQLite, PostgreSQL and MariaDB (the servers on this machine),
// the files whose subject is not the database on SQLite only (TEST_SCOPE in vitest.config.ts),
// then the ledger's suites on PostgreSQL once more with PG_PIPELINE=false (`postgres-stepwise`: each
// statement its own round trip, the way the pipelined transactions fall back to). Each run also writes
// a JSON report, so the failures of every run are listed again at the very end, where a CI log that
// keeps only its last lines still shows them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const databases = (process.env.TEST_DBS ?? 'sqlite,postgres,mysql,postgres-stepwise').split(',');

/** The files that move quota, run again on PostgreSQL step by step (unless files are named). */
const STEPWISE_FILES = [
  'test/ledger.test.ts',
  'test/outage.test.ts',
  'test/crash.test.ts',
  'test/lease-fencing.test.ts',
  'test/key-budget.test.ts',
  'test/billing.test.ts',
  'test/relay-budget.test.ts',
];

const runs = {
  sqlite: { TEST_DB: 'sqlite' },
  postgres: { TEST_DB: 'postgres' },
  mysql: { TEST_DB: 'mysql' },
  'postgres-stepwise': { TEST_DB: 'postgres', PG_PIPELINE: 'false' },
};
const namesFiles = process.argv.slice(2).some((arg) => !arg.startsWith('-'));
const setsWorkers = process.argv.slice(2).some((arg) => arg.startsWith('--maxWorkers'));
/**
 * Step by step a transaction takes several times the round trips: with three of these files at once
 * on a busy 2-core machine the ledger's and the outage's calls ran past their 3-5 s database waits
 * (503s); two at a time they pass.
 */
const STEPWISE_WORKERS = '--maxWorkers=2';
const reports = mkdtempSync(join(tmpdir(), 'server-tests-'));
const failed = [];
for (const database of databases) {
  const env = runs[database];
  if (!env) throw new Error(`TEST_DBS: unknown run ${database} (known: ${Object.keys(runs).join(', ')})`);
  const stepwise = database === 'postgres-stepwise';
  const files = stepwise && !namesFiles ? STEPWISE_FILES : [];
  const workers = stepwise && !setsWorkers ? [STEPWISE_WORKERS] : [];
  // Beyond SQLite, only the files whose subject is the database (vitest.config.ts).
  const scope = database !== 'sqlite' && !namesFiles ? { TEST_SCOPE: 'database' } : {};
  console.log(`\n=== server tests on ${database} ===`);
  const started = performance.now();
  const report = join(reports, `${database}.json`);
  const run = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...workers,
      ...process.argv.slice(2),
      ...files,
    ],
    { stdio: 'inherit', env: { ...process.env, ...scope, ...env } },
  );
  console.log(`=== ${database}: ${Math.round((performance.now() - started) / 1000)} s ===`);
  if (run.status !== 0) failed.push({ database, failures: failuresIn(report) });
}
if (failed.length > 0) {
  for (const { database, failures } of failed) {
    console.error(`\nserver tests failed on ${database}:`);
    for (const line of failures) console.error(`  ${line}`);
  }
  process.exit(1);
}
console.log(`\nserver tests passed on: ${databases.join(', ')}`);

function failuresIn(report) {
  try {
    const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
    const lines = [];
    for (const file of testResults) {
      const name = file.name.replace(`${process.cwd()}/`, '');
      const failedTests = file.assertionResults.filter((test) => test.status === 'failed');
      if (failedTests.length === 0 && file.status === 'failed')
        lines.push(`${name}: ${firstLine(file.message)}`);
      for (const test of failedTests)
        lines.push(`${name} > ${test.fullName}: ${firstLine(test.failureMessages[0])}`);
    }
    return lines.length > 0 ? lines : ['(no failed test in the report: the run itself failed)'];
  } catch {
    return ['(no report: the run stopped before writing it)'];
  }
}

function firstLine(text) {
  return String(text ?? '')
    .split('\n')[0]
    .slice(0, 300);
}
