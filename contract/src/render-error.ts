import { ERROR_MESSAGES } from './error-messages';

export type ErrorCode = keyof typeof ERROR_MESSAGES;
export type ErrorParams = Record<string, string | number>;
export type ErrorLanguage = 'en' | 'zh';

/** A refusal as data: what the envelope carries besides its rendered `message`. */
export interface ErrorDetail {
  code: ErrorCode;
  params?: ErrorParams;
}

export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(ERROR_MESSAGES, code);

/** A code's message in a language, its `{param}` placeholders filled (an absent param stays as written). */
export function renderError(
  code: ErrorCode,
  params: ErrorParams = {},
  language: ErrorLanguage = 'en',
): string {
  return ERROR_MESSAGES[code][language].replace(/\{(\w+)\}/g, (placeholder, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : placeholder,
  );
}

/** The first of zh and en an `Accept-Language` header asks for, by its q order; English by default. */
export function preferredLanguage(header: string | undefined): ErrorLanguage {
  const ranked = (header ?? '')
    .split(',')
    .map((entry, index) => {
      const [tag = '', ...options] = entry.trim().toLowerCase().split(';');
      const q = options.map((option) => option.trim()).find((option) => option.startsWith('q='));
      return { primary: tag.trim().split('-')[0], q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const match = ranked.find((entry) => entry.primary === 'zh' || entry.primary === 'en');
  return match?.primary === 'zh' ? 'zh' : 'en';
}
