// Every test (npm test): the quick checks one after another, then two lanes at once: the server's units
// and suites on SQLite and PostgreSQL (and the ledger's step-by-step run), beside the console's (units,
// build, end-to-end in Chromium, the agents' CLIs), which then runs the server suites on MariaDB, so
// that the two end together. Both spend much of their time waiting on child servers, databases,
// timers and the browser; a third lane at once made the two cores the limit (SQLite 615 -> 1,008 s).
// Each line is printed as it comes with its lane's name; a failed lane's last lines are printed again
// at the very end, where a CI log that keeps only its tail still shows them.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const FIRST = ['lint', 'typecheck', 'test:contract'];
/** Each lane's npm scripts in turn: a script's name, then its arguments and environment, if any. */
const LANES = {
  server: [
    ['test:unit', ['-w', 'server']],
    ['test:bench'],
    ['test:databases', ['-w', 'server'], { TEST_DBS: 'sqlite,postgres,postgres-stepwise' }],
  ],
  console: [
    ['test:web'],
    ['test:e2e'],
    ['test:agents'],
    ['test:databases', ['-w', 'server'], { TEST_DBS: 'mysql' }],
  ],
};
const TAIL_LINES = 150;

/** How a lane's step reads in the log: `TEST_DBS=… npm run test:databases -w server`. */
function describe([script, args = [], env = {}]) {
  const vars = Object.entries(env).map(([key, value]) => `${key}=${value} `);
  return `${vars.join('')}npm run ${[script, ...args].join(' ')}`;
}

/** Runs `npm run <script> <args>` with each output line passed to `onLine`; resolves to its exit code. */
function runScript([script, args = [], env = {}], onLine) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', onLine);
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function runLane(name, scripts) {
  const tail = [];
  const started = performance.now();
  for (const script of scripts) {
    const code = await runScript(script, (line) => {
      console.log(`[${name}] ${line}`);
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
    });
    if (code !== 0) return { name, failed: describe(script), tail };
  }
  console.log(`[${name}] passed in ${Math.round((performance.now() - started) / 1000)} s`);
  return { name };
}

for (const script of FIRST) {
  const code = await runScript([script], (line) => console.log(line));
  if (code !== 0) {
    console.error(`npm run ${script} failed`);
    process.exit(1);
  }
}

const results = await Promise.all(Object.entries(LANES).map(([name, scripts]) => runLane(name, scripts)));
const failures = results.filter((result) => result.failed);
for (const { name, failed, tail } of failures) {
  console.error(`\n=== lane ${name}: ${failed} failed; its last ${tail.length} lines ===`);
  for (const line of tail) console.error(line);
}
if (failures.length > 0) process.exit(1);
console.log('\nevery test passed');
