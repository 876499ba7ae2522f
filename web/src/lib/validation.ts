import type { ValidationIssue } from '@switchyard/contract/issue-rules';
import { issueRule } from '@switchyard/contract/issue-rules';
import type { TFunction } from 'i18next';

export type FieldErrors = Partial<Record<string, string>>;

/** The wording of the user forms (register, add user, edit user, personal settings). */
export const USER_MESSAGES = ['validation.user'] as const;

/** One issue's message: a form's own wording for that field and rule when it has one, else the rule's. */
export function issueMessage(issue: ValidationIssue, t: TFunction, scopes: readonly string[] = []): string {
  const field = String(issue.path[0] ?? '');
  const rule = issueRule(issue);
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
