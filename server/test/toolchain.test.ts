import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => fs.readFileSync(path.join(REPO, file), 'utf8');
const rootPackage = JSON.parse(read('package.json')) as {
  engines: { node: string };
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};
const major = (version: string) => Number(/(\d+)/.exec(version)?.[1]);

/**
 * Runs scripts/on-declared-node.cjs with a command, on this Node.js, in a copy of the project that
 * declares `engines` and whose scripts/use-node.sh only says it was sourced (it fetches nothing).
 */
function onDeclaredNode(
  engines: string,
  command: string[] = [],
): { status: number | null; stdout: string; stderr: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'on-declared-node-'));
  try {
    fs.mkdirSync(path.join(dir, 'scripts'));
    const script = 'scripts/on-declared-node.cjs';
    fs.copyFileSync(path.join(REPO, script), path.join(dir, script));
    fs.writeFileSync(path.join(dir, 'scripts/use-node.sh'), 'echo "use-node.sh sourced" >&2\n');
    fs.writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ ...rootPackage, engines: { node: engines } }),
    );
    // `node` on the PATH is this one, as after a use-node.sh that could not bring another.
    const { SWITCHYARD_NODE_FETCHED: _fetched, ...inherited } = process.env;
    const env = { ...inherited, PATH: `${path.dirname(process.execPath)}:${process.env.PATH}` };
    const run = spawnSync(process.execPath, [path.join(dir, script), ...command], { encoding: 'utf8', env });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the Node.js the project declares', () => {
  it('is one major everywhere: engines, .nvmrc, @types/node, and the Node.js these tests run on', () => {
    const declared = Number(read('.nvmrc').trim());
    expect(major(rootPackage.engines.node)).toBe(declared);
    expect(major(rootPackage.devDependencies['@types/node']!)).toBe(declared);
    expect(onDeclaredNode(rootPackage.engines.node)).toMatchObject({ status: 0, stderr: '' });
  });

  it('npm start and npm test run their steps on it, and pass on how those steps end', () => {
    for (const script of ['start', 'test'])
      expect(rootPackage.scripts[script]).toMatch(/^node scripts\/on-declared-node\.cjs npm run \S+$/);
    const ran = onDeclaredNode(rootPackage.engines.node, [
      process.execPath,
      '-e',
      'console.log("ran"); process.exit(3)',
    ]);
    expect(ran).toMatchObject({ status: 3, stdout: 'ran\n' });
  });

  it('on an older Node.js they try scripts/use-node.sh once, then refuse, saying which one they need and how to get it', () => {
    const newer = `>=${major(process.versions.node) + 1}.0`;
    const refused = onDeclaredNode(newer, [process.execPath, '-e', 'console.log("ran")']);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.match(/use-node\.sh sourced/g)).toHaveLength(1);
    expect(refused.stderr).toContain(`Switchyard needs Node.js ${newer}; this is Node.js ${process.version}`);
    expect(refused.stderr).toContain('. scripts/use-node.sh');
    expect(refused.stderr).not.toMatch(/\bat .*\.cjs:\d+/); // a message, not a stack trace

    // Equal is enough; an older minor of the same major is not.
    const [have, minor] = process.versions.node.split('.').map(Number) as [number, number];
    expect(onDeclaredNode(`>=${have}.${minor}`).status).toBe(0);
    expect(onDeclaredNode(`>=${have}.${minor + 1}`).status).toBe(1);
  });
});

describe('the install', () => {
  it("runs no dependency's install script that package.json's allowScripts does not name", () => {
    // npm 11 lists what would run unreviewed (a warning at every install now, refused by stricter npm).
    const pending = spawnSync('npm', ['install-scripts', 'ls', '--json'], { cwd: REPO, encoding: 'utf8' });
    expect(pending.status).toBe(0);
    expect(JSON.parse(pending.stdout)).toEqual({ allowScripts: [] });
  });
});
