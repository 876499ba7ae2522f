// Refuses to go on, with the way out, on a Node.js older than package.json's engines.node (">=MAJOR.MINOR"):
// the dependencies need it, and on an older one some crash (better-sqlite3's binary) rather than fail.
// CommonJS without newer syntax, so that an old Node.js can read it and say so.
'use strict';
const path = require('node:path');

const wanted = require(path.join(__dirname, '..', 'package.json')).engines.node;
const least = /^>=(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(wanted);
if (!least) throw new Error(`package.json engines.node should read ">=MAJOR.MINOR", not "${wanted}"`);
const have = process.versions.node.split('.').map(Number);
const need = [least[1], least[2], least[3]].map((part) => Number(part || 0));
const differs = [0, 1, 2].find((i) => have[i] !== need[i]);
if (differs !== undefined && have[differs] < need[differs]) {
  console.error(
    [
      `Switchyard needs Node.js ${wanted}; this is Node.js ${process.version} (${process.execPath}).`,
      'Get it in this shell with `. scripts/use-node.sh` (fetches it from the npm registry into .node/), or from',
      'https://nodejs.org or nvm (`nvm install` reads .nvmrc); then run `npm install` and `npm start` again.',
    ].join('\n'),
  );
  process.exit(1);
}
