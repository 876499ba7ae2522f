import { z } from 'zod';

/**
 * Imported first by the console, which runs under a CSP without 'unsafe-eval': zod then neither
 * compiles parsers with `new Function` nor probes whether it may (a CSP violation each time).
 */
z.config({ jitless: true });
