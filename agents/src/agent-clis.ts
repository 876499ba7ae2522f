import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { UpstreamFormat } from './scripted-upstream';

const require = createRequire(import.meta.url);
/** The folder of an installed package, from its package.json's path. */
const packageDir = (manifest: string) => dirname(manifest);

/** The three agent CLIs, each by the client format it speaks to the gateway. */
export type AgentName = 'claude' | 'codex' | 'gemini';

export const AGENT_FORMAT: Record<AgentName, UpstreamFormat> = {
  claude: 'anthropic',
  codex: 'openai',
  gemini: 'gemini',
};

/** The model each CLI is told to use: the name an operator lists or maps on the channel. */
export const AGENT_MODEL: Record<AgentName, string> = {
  claude: 'claude-sonnet-4-5',
  codex: 'gpt-5-codex',
  gemini: 'gemini-2.5-pro',
};

export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from start to exit. */
  took: number;
}

const PROMPT = 'Run the shell command the task needs, then say what it printed.';

interface Invocation {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * How each CLI is pointed at the gateway (docs/agents.md says the same to operators): its own HOME,
 * telemetry, update checks and prompts off, the gateway's URL and the Switchyard key.
 */
function invocation(agent: AgentName, home: string, gateway: string, key: string): Invocation {
  const model = AGENT_MODEL[agent];
  switch (agent) {
    case 'claude':
      // The package's own launcher: its install script (not allowed here) would only copy the
      // platform binary over the placeholder it ships.
      return {
        command: process.execPath,
        args: [
          join(packageDir(require.resolve('@anthropic-ai/claude-code/package.json')), 'cli-wrapper.cjs'),
          '-p',
          PROMPT,
          '--model',
          model,
          '--allowedTools',
          'Bash',
        ],
        env: {
          ANTHROPIC_BASE_URL: gateway,
          ANTHROPIC_API_KEY: key,
          ANTHROPIC_SMALL_FAST_MODEL: model,
          ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
          DISABLE_TELEMETRY: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_ERROR_REPORTING: '1',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        },
      };
    case 'codex': {
      const codexHome = join(home, '.codex');
      mkdirSync(codexHome, { recursive: true });
      writeFileSync(
        join(codexHome, 'config.toml'),
        [
          `model = "${model}"`,
          'model_provider = "switchyard"',
          '[model_providers.switchyard]',
          'name = "Switchyard"',
          `base_url = "${gateway}/v1"`,
          'env_key = "SWITCHYARD_API_KEY"',
          'wire_api = "responses"',
          '[analytics]',
          'enabled = false',
          '[otel]',
          'exporter = "none"',
          '',
        ].join('\n'),
      );
      return {
        command: join(packageDir(require.resolve('@openai/codex/package.json')), 'bin/codex.js'),
        args: [
          'exec',
          '--skip-git-repo-check',
          '--dangerously-bypass-approvals-and-sandbox',
          '--color',
          'never',
          PROMPT,
        ],
        env: { CODEX_HOME: codexHome, SWITCHYARD_API_KEY: key },
      };
    }
    case 'gemini': {
      const settingsDir = join(home, '.gemini');
      mkdirSync(settingsDir, { recursive: true });
      writeFileSync(
        join(settingsDir, 'settings.json'),
        JSON.stringify({
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
          security: { auth: { selectedType: 'gemini-api-key' } },
        }),
      );
      return {
        command: join(packageDir(require.resolve('@google/gemini-cli/package.json')), 'bundle/gemini.js'),
        args: ['-p', PROMPT, '-m', model, '--yolo'],
        env: {
          GOOGLE_GEMINI_BASE_URL: gateway,
          GEMINI_API_KEY: key,
          // Headless in a folder it has never seen: trusted, or it refuses --yolo.
          GEMINI_CLI_TRUST_WORKSPACE: 'true',
          // It would start itself again in a second Node.js with a larger heap: seconds of start-up.
          GEMINI_CLI_NO_RELAUNCH: 'true',
        },
      };
    }
  }
}

/** Runs one CLI non-interactively in a fresh HOME and working folder, and answers what it printed. */
export async function runAgent(
  agent: AgentName,
  gateway: string,
  key: string,
  timeoutMs = 150_000,
): Promise<AgentRun> {
  const home = mkdtempSync(join(tmpdir(), `switchyard-${agent}-`));
  const work = join(home, 'work');
  mkdirSync(work);
  const { command, args, env } = invocation(agent, home, gateway, key);
  const started = Date.now();
  const child = spawn(command, args, {
    cwd: work,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      TMPDIR: tmpdir(),
      LANG: 'C.UTF-8',
      NO_COLOR: '1',
      CI: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  rmSync(home, { recursive: true, force: true });
  return { code, stdout, stderr, took: Date.now() - started };
}
