import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './databases';
import { sleep } from './ledger-books';
import { buildServer, freePort, servedNodeFlags } from './process/built-server';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => fs.readFileSync(path.join(REPO, file), 'utf8');

/** The image's CMD (exec form) and the ENV of its last stage. */
function readDockerfile(): { command: string[]; env: Record<string, string> } {
  const text = read('Dockerfile');
  const stages = text.split(/^FROM /m);
  const last = stages[stages.length - 1] ?? '';
  const cmd = /^CMD (\[.*\])$/m.exec(last)?.[1];
  if (!cmd) throw new Error('the Dockerfile has no CMD in exec form');
  const env: Record<string, string> = {};
  for (const [, line] of last.matchAll(/^ENV (.*)$/gm)) {
    for (const [, name, value] of (line ?? '').matchAll(/(\w+)=(\S+)/g)) env[name!] = value!;
  }
  return { command: JSON.parse(cmd) as string[], env };
}

/** KEY=VALUE lines of an env file (comments and blanks skipped). */
function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of read(file).split('\n')) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1]!] = match[2]!;
  }
  return env;
}

/**
 * A service of docker-compose.yml: its `env_file` and its `environment` mapping, read with just
 * enough YAML for this file (two-space indents, `KEY: value` pairs).
 */
function readComposeService(name: string): {
  envFile: string | undefined;
  environment: Record<string, string>;
} {
  const lines = read('docker-compose.yml').split('\n');
  const start = lines.indexOf(`  ${name}:`);
  if (start < 0) throw new Error(`docker-compose.yml has no service ${name}`);
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^ {0,2}\S/.test(line)) break;
    body.push(line);
  }
  const envFile = body.map((line) => /^ {4}env_file: (\S+)$/.exec(line)?.[1]).find(Boolean);
  const environment: Record<string, string> = {};
  const at = body.indexOf('    environment:');
  for (const line of at < 0 ? [] : body.slice(at + 1)) {
    const pair = /^ {6}([A-Z_][A-Z0-9_]*): "?([^"]*)"?$/.exec(line);
    if (!pair) break;
    environment[pair[1]!] = pair[2]!;
  }
  return { envFile, environment };
}

describe('the Docker image and docker-compose.yml', () => {
  let database: TestDatabase;
  let build: Awaited<ReturnType<typeof buildServer>>;
  let child: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    [build, database] = await Promise.all([buildServer(), createTestDatabase('postgres')]);
  }, 120_000);

  afterAll(async () => {
    child?.kill('SIGKILL');
    await database?.drop();
    build?.remove();
  });

  it('compose runs PostgreSQL, Redis and two gateway replicas of the image', () => {
    const compose = read('docker-compose.yml');
    for (const service of ['postgres', 'redis', 'gateway1', 'gateway2'])
      expect(compose).toContain(`\n  ${service}:\n`);
    expect(readComposeService('gateway1').environment.NODE_TYPE).toBe('master');
    expect(readComposeService('gateway2').environment.NODE_TYPE).toBe('slave');
    const dockerfile = read('Dockerfile');
    // Both stages run the Node.js major the project declares.
    const node = read('.nvmrc').trim();
    expect(dockerfile.match(/^FROM .*$/gm)).toEqual([
      `FROM node:${node}-slim AS build`,
      `FROM node:${node}-slim`,
    ]);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^VOLUME \/data$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK [\s\S]*\/healthz/m);
    expect(readDockerfile().env.SQLITE_PATH).toBe('/data/one-api.db');
  });

  it("the image's command, with gateway1's environment, gets ready on a database and Redis of its own", async () => {
    const image = readDockerfile();
    const gateway = readComposeService('gateway1');
    const env: Record<string, string> = {
      ...image.env,
      ...(gateway.envFile ? readEnvFile(gateway.envFile) : {}),
      ...gateway.environment,
    };
    // The compose file's hosts (postgres, redis) are this machine's servers here: a private database
    // and a Redis database index of this run's own.
    const composeDsn = new URL(env.SQL_DSN!);
    const ours = new URL(database.env.SQL_DSN);
    expect(composeDsn.protocol).toBe(ours.protocol);
    env.SQL_DSN = ours.toString();
    const redis = new URL(env.REDIS_CONN_STRING!);
    expect(redis.hostname).toBe('redis');
    env.REDIS_CONN_STRING = `${process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'}/${1 + Math.floor(Math.random() * 15)}`;
    const port = await freePort();
    env.PORT = String(port);
    env.SQLITE_PATH = path.join(path.dirname(build.entry), 'unused.db');

    const [program, ...args] = image.command;
    expect(program).toBe('node');
    expect(args.at(-1)).toBe('server/dist/main.js');
    expect(args.slice(0, -1)).toEqual(servedNodeFlags());
    child = spawn(process.execPath, [...args.slice(0, -1), build.entry], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    // A start-up under a busy CI took over 30 s (its migrations alone 10 s).
    const deadline = Date.now() + 50_000;
    let status = 0;
    while (status !== 200 && Date.now() < deadline && child.exitCode === null) {
      status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (response) => response.status,
        () => 0,
      );
      if (status !== 200) await sleep(200);
    }
    expect(status, output).toBe(200);
    expect(output).toContain('metrics on');
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});
