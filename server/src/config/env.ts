/** A setting that cannot be used: the process stops at start and says which variable and why. */
export class ConfigError extends Error {}

/** The process environment (or a test's). */
export type Env = Record<string, string | undefined>;

export function fail(variable: string, problem: string): never {
  throw new ConfigError(`${variable}: ${problem}`);
}

export function readInteger(env: Env, variable: string, fallback: number, min: number, max: number): number {
  const raw = env[variable]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw)) fail(variable, `expected a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) fail(variable, `must be between ${min} and ${max}, got ${value}`);
  return value;
}
