/**
 * Imported first by the console, which runs under a CSP without 'unsafe-eval': zod then neither
 * compiles parsers with `new Function` nor probes whether it may (a CSP violation each time).
 * zod takes its global configuration from `globalThis.__zod_globalConfig` when it loads, so setting it
 * here, without importing zod, keeps zod out of the first download: only pages with forms load it.
 */
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };
