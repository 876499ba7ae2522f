import type { ErrorCode, ErrorDetail } from './render-error';

/** The part of a zod issue both sides read (kept structural so callers need no zod import). */
export interface ValidationIssue {
  path: PropertyKey[];
  code: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  /** Set by the contract's own checks: `rule` names the check, the rest fills its message. */
  params?: Record<string, unknown>;
}

/** The rule an issue broke: required, tooShort, tooLong, tooSmall, tooBig, invalid or a custom rule's name. */
export function issueRule(issue: ValidationIssue): string {
  const numeric = issue.origin === 'number' || issue.origin === 'bigint';
  switch (issue.code) {
    case 'custom':
      return typeof issue.params?.rule === 'string' ? issue.params.rule : 'invalid';
    case 'too_small':
      if (numeric) return 'tooSmall';
      return Number(issue.minimum) === 1 ? 'required' : 'tooShort';
    case 'too_big':
      return numeric ? 'tooBig' : 'tooLong';
    default:
      return 'invalid';
  }
}

const FIELD_CODES: Record<string, ErrorCode> = {
  required: 'field_required',
  tooShort: 'field_too_short',
  tooLong: 'field_too_long',
  tooSmall: 'field_too_small',
  tooBig: 'field_too_big',
  url: 'field_url',
  json: 'field_json',
  cidr: 'field_cidr',
};

/** An issue as a refusal the console can word in its language: the field's path, the rule's code, limits. */
export function fieldRefusal(issue: ValidationIssue): ErrorDetail {
  const params: Record<string, string | number> = { field: issue.path.join('.') };
  if (issue.minimum !== undefined) params.min = Number(issue.minimum);
  if (issue.maximum !== undefined) params.max = Number(issue.maximum);
  if (typeof issue.params?.entry === 'string') params.entry = issue.params.entry;
  return { code: FIELD_CODES[issueRule(issue)] ?? 'field_invalid', params };
}
