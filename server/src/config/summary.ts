import type { Config } from '.';
import type { DatabaseTarget } from './database-target';
import { OBSOLETE_VARIABLES } from './operations';
import type { RedisTarget } from './redis-target';

const MASK = '***';

/** A URL with its password (and a user's `?password=`) replaced by ***. */
export function maskUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = MASK;
    for (const name of [...url.searchParams.keys()]) {
      if (/pass|secret|token|key/i.test(name)) url.searchParams.set(name, MASK);
    }
    return url.toString();
  } catch {
    return MASK;
  }
}

function describeDatabase(target: DatabaseTarget): string {
  switch (target.dialect) {
    case 'sqlite':
      return `sqlite ${target.file}`;
    case 'postgres':
      return `postgres ${maskUrl(target.connectionString)}`;
    case 'mysql': {
      const where = target.socketPath ?? `${target.host}:${target.port}`;
      return `mysql ${target.user}${target.password ? `:${MASK}` : ''}@${where}/${target.database}`;
    }
  }
}

function describeRedis(target: RedisTarget | undefined): string {
  if (!target) return 'no';
  switch (target.mode) {
    case 'standalone':
      return maskUrl(target.url);
    case 'sentinel':
      return `sentinel ${target.masterName} via ${target.sentinels.map((node) => `${node.host}:${node.port}`).join(',')}`;
    case 'cluster':
      return `cluster ${target.nodes.map((node) => `${node.host}:${node.port}`).join(',')}`;
  }
}

/** The start-up line's fields: what this server runs on, secrets masked. */
export function configSummary(config: Config): Record<string, string | number | boolean> {
  return {
    database: describeDatabase(config.database),
    ...(config.logDatabase ? { logDatabase: describeDatabase(config.logDatabase) } : {}),
    redis: describeRedis(config.redis),
    port: config.port,
    workers: config.workers,
    metrics: config.metricsToken ? 'on' : 'off',
    nodeType: config.nodeType,
    shutdownTimeoutSeconds: config.shutdownTimeoutMs / 1000,
    debug: config.debug,
    debugSql: config.debugSql,
    ...(config.frontendBaseUrl ? { frontendBaseUrl: config.frontendBaseUrl } : {}),
  };
}

/** The line saying which one-api variables were set that this server does not need, and why; undefined when none. */
export function obsoleteVariablesLine(config: Config): string | undefined {
  if (config.obsoleteVariables.length === 0) return undefined;
  const reasons = config.obsoleteVariables.map((name) => `${name} (${OBSOLETE_VARIABLES[name]})`);
  return `Not needed here, ignored: ${reasons.join('; ')}`;
}
