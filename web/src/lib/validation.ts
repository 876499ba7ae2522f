import {
  DISPLAY_NAME_MAX,
  EMAIL_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  USERNAME_MAX,
} from '@switchyard/contract/users';
import type { TFunction } from 'i18next';

/** The part of a zod issue the console needs (kept structural so forms need no zod import). */
export interface ValidationIssue {
  path: PropertyKey[];
  code: string;
}

export type FieldErrors = Partial<Record<string, string>>;

/** One translated message per field, from the shared contract schemas' issues. */
export function fieldErrors(issues: readonly ValidationIssue[], t: TFunction): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    if (errors[field]) continue;
    errors[field] = issueMessage(field, issue.code, t);
  }
  return errors;
}

function issueMessage(field: string, code: string, t: TFunction): string {
  switch (`${field}:${code}`) {
    case 'username:too_small':
      return t('validation.usernameRequired');
    case 'username:too_big':
      return t('validation.usernameTooLong', { max: USERNAME_MAX });
    case 'password:too_small':
      return t('validation.passwordTooShort', { min: PASSWORD_MIN });
    case 'password:too_big':
      return t('validation.passwordTooLong', { max: PASSWORD_MAX });
    case 'display_name:too_big':
      return t('validation.displayNameTooLong', { max: DISPLAY_NAME_MAX });
    case 'email:too_big':
      return t('validation.emailTooLong', { max: EMAIL_MAX });
    default:
      return t('validation.invalid');
  }
}
