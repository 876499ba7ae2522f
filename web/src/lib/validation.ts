import type { TFunction } from 'i18next';

/** The part of a zod issue the console needs (kept structural so forms need no zod import). */
export interface ValidationIssue {
  path: PropertyKey[];
  code: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  /** Set by the contract's own checks: `rule` names the check, the rest fills its message. */
  params?: Record<string, unknown>;
}

export type FieldErrors = Partial<Record<string, string>>;

/** The wording of the user forms (register, add user, edit user, personal settings). */
export const USER_MESSAGES = ['validation.user'] as const;

/** The rule an issue broke, as the message tables name it (`validation.<rule>`). */
function ruleOf(issue: ValidationIssue): string {
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

/** One issue's message: a form's own wording for that field and rule when it has one, else the rule's. */
export function issueMessage(issue: ValidationIssue, t: TFunction, scopes: readonly string[] = []): string {
  const field = String(issue.path[0] ?? '');
  const rule = ruleOf(issue);
  const keys = [...scopes.map((scope) => `${scope}.${field}.${rule}`), `validation.${rule}`];
  const values = { min: Number(issue.minimum), max: Number(issue.maximum), ...issue.params };
  return t(keys, values);
}

/**
 * One translated message per field (the first issue of each), from the contract schemas' issues.
 * `scopes` are translation subtrees of field → rule → message, the first match winning.
 */
export function fieldErrors(
  issues: readonly ValidationIssue[],
  t: TFunction,
  scopes: readonly string[],
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issueMessage(issue, t, scopes);
  }
  return errors;
}
