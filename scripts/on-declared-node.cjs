// Runs the command it is given (npm start's and npm test's steps) on the Node.js package.json declares
// (engines.node, ">=MAJOR.MINOR"): at once when this one is recent enough; else through
// scripts/use-node.sh, which fetches the declared major from the npm registry into .node/; and when
// that cannot be had, refuses with the way out, before anything is built (on an older Node.js the
// dependencies fail, some by crashing: better-sqlite3's binary).
// CommonJS without newer syntax, so that an old Node.js can read it and say so.
'use strict';
const { spawn } = require('node:child_process');
const { constants } = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');
const wanted = require(path.join(root, 'package.json')).engines.node;
const least = /^>=(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(wanted);
if (!least) throw new Error(`package.json engines.node should read ">=MAJOR.MINOR", not "${wanted}"`);
const have = process.versions.node.split('.').map(Number);
const need = [least[1], least[2], least[3]].map((part) => Number(part || 0));
const differs = [0, 1, 2].find((i) => have[i] !== need[i]);
const recentEnough = differs === undefined || have[differs] > need[differs];
const command = process.argv.slice(2);
// Set on the second pass, so a fetch that brought no newer Node.js refuses instead of looping.
const fetched = process.env.SWITCHYARD_NODE_FETCHED === '1';

if (recentEnough) run(command[0], command.slice(1), process.env);
else if (!fetched && process.platform !== 'win32') {
  console.error(
    `Node.js ${process.version} is older than the ${wanted} Switchyard needs: using scripts/use-node.sh.`,
  );
  const again = [
    '.',
    'scripts/use-node.sh',
    '&&',
    'exec',
    'node',
    'scripts/on-declared-node.cjs',
    '"$@"',
  ].join(' ');
  run('bash', ['-c', again, 'bash', ...command], { ...process.env, SWITCHYARD_NODE_FETCHED: '1' });
} else {
  console.error(
    [
      `Switchyard needs Node.js ${wanted}; this is Node.js ${process.version} (${process.execPath}).`,
      'Get it in this shell with `. scripts/use-node.sh` (fetches it from the npm registry into .node/), or from',
      'https://nodejs.org or nvm (`nvm install` reads .nvmrc); then run `npm install` and `npm start` again.',
    ].join('\n'),
  );
  process.exit(1);
}

/** Runs a command in the project's folder, passing signals on, and ends as it ends. */
function run(file, args, env) {
  if (!file) process.exit(0);
  const child = spawn(file, args, { cwd: root, env, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    process.exit(signal ? 128 + constants.signals[signal] : code === null ? 1 : code);
  });
}
