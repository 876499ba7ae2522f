// Runs the server suite once per database: SQLite, PostgreSQL and MariaDB (the servers on this machine).
import { spawnSync } from 'node:child_process';

const databases = (process.env.TEST_DBS ?? 'sqlite,postgres,mysql').split(',');
const failed = [];
for (const database of databases) {
  console.log(`\n=== server tests on ${database} ===`);
  const run = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, TEST_DB: database },
  });
  if (run.status !== 0) failed.push(database);
}
if (failed.length > 0) {
  console.error(`\nserver tests failed on: ${failed.join(', ')}`);
  process.exit(1);
}
console.log(`\nserver tests passed on: ${databases.join(', ')}`);
