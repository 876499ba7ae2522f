import type { AuditEntry } from '@switchyard/contract/audit';
import type { Query } from '../../../lib/api-client';
import { useServerPages } from '../../../lib/list-queries';

/** The audit filters as GET /api/audit/ takes them (without p). */
export type AuditQuery = Query;

/** Audit pages of 10, newest first. */
export const useAuditPages = (query: AuditQuery) =>
  useServerPages<AuditEntry>(['audit', query], '/api/audit/', query);
