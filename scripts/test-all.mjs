// Every test (npm test): the quick checks one after another, then two lanes at once, the server suites
// on every database beside the console's (units, build, end-to-end in Chromium, the agents' CLIs).
// Both lanes spend most of their time waiting on child servers, databases and the browser (each used
// about one core of two when it ran alone), so side by side they take little more than the longer one.
// Each line is printed as it comes with its lane's name; a failed lane's last lines are printed again
// at the very end, where a CI log that keeps only its tail still shows them.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const FIRST = ['lint', 'typecheck', 'test:contract'];
const LANES = {
  server: ['test:server'],
  console: ['test:web', 'test:e2e', 'test:agents'],
};
const TAIL_LINES = 150;

/** Runs `npm run <script>` with each output line passed to `onLine`; resolves to its exit code. */
function runScript(script, onLine) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', script], { stdio: ['ignore', 'pipe', 'pipe'] });
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
    if (code !== 0) return { name, failed: script, tail };
  }
  console.log(`[${name}] passed in ${Math.round((performance.now() - started) / 1000)} s`);
  return { name };
}

for (const script of FIRST) {
  const code = await runScript(script, (line) => console.log(line));
  if (code !== 0) {
    console.error(`npm run ${script} failed`);
    process.exit(1);
  }
}

const results = await Promise.all(Object.entries(LANES).map(([name, scripts]) => runLane(name, scripts)));
const failures = results.filter((result) => result.failed);
for (const { name, failed, tail } of failures) {
  console.error(`\n=== lane ${name}: npm run ${failed} failed; its last ${tail.length} lines ===`);
  for (const line of tail) console.error(line);
}
if (failures.length > 0) process.exit(1);
console.log('\nevery test passed');
