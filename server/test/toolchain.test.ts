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

/** Runs scripts/check-node.cjs, on this Node.js, in a copy of the project that declares `engines`. */
function checkNode(engines: string): { status: number | null; stdout: string; stderr: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-node-'));
  try {
    fs.mkdirSync(path.join(dir, 'scripts'));
    fs.copyFileSync(path.join(REPO, 'scripts/check-node.cjs'), path.join(dir, 'scripts/check-node.cjs'));
    fs.writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ ...rootPackage, engines: { node: engines } }),
    );
    const run = spawnSync(process.execPath, [path.join(dir, 'scripts/check-node.cjs')], { encoding: 'utf8' });
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
    expect(checkNode(rootPackage.engines.node)).toMatchObject({ status: 0, stderr: '' });
  });

  it('npm start and npm test refuse an older Node.js first, saying which one they need and how to get it', () => {
    for (const script of ['start', 'test'])
      expect(rootPackage.scripts[script]).toMatch(/^node scripts\/check-node\.cjs && /);

    const newer = `>=${major(process.versions.node) + 1}.0`;
    const refused = checkNode(newer);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`Switchyard needs Node.js ${newer}; this is Node.js ${process.version}`);
    expect(refused.stderr).toContain('. scripts/use-node.sh');
    expect(refused.stderr).not.toMatch(/\bat .*\.cjs:\d+/); // a message, not a stack trace

    // Equal is enough; an older minor of the same major is not.
    const [have, minor] = process.versions.node.split('.').map(Number) as [number, number];
    expect(checkNode(`>=${have}.${minor}`).status).toBe(0);
    expect(checkNode(`>=${have}.${minor + 1}`).status).toBe(1);
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
