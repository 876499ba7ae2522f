import { CONSOLE_CALL_HEADER, CONSOLE_CALL_VALUE } from '@switchyard/contract/console-call';
import type { Envelope } from '@switchyard/contract/envelope';
import { i18n } from '../i18n/i18n';
import { cancelLeaving, clearSession, sessionCanExpire } from './session';
import { showError, showInfo } from './toast';

/**
 * The one place that talks to the server: it unwraps the {success, message, data}
 * envelope and turns every failure into the toast or redirect of spec section 8,
 * so pages and hooks never repeat that handling.
 */

/** A failed call. The reader has already been told (toast or redirect) unless `silent` was asked for. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly kind: 'refused' | 'http' | 'network',
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface CallOptions {
  query?: Query;
  body?: unknown;
  /** Skip the standard error toast; the caller shows its own message. */
  silent?: boolean;
}

interface ClientConfig {
  /** Base address of the server; empty means same origin. */
  baseUrl: string;
  /** What a 401 does: by default, when a signed-in session can expire, forget the user and go to /login?expired=true. */
  onUnauthorized: () => void;
  /** Root requires two-factor sign-in of administrators and this one has none: to the personal settings. */
  onEnrolmentRequired: () => void;
}

/** Where the personal settings show two-factor enrolment. */
const ENROLMENT_PAGE = '/setting';

const defaultConfig: ClientConfig = {
  baseUrl: '',
  onUnauthorized: () => {
    if (!sessionCanExpire()) return;
    clearSession();
    window.location.assign('/login?expired=true');
  },
  onEnrolmentRequired: () => {
    if (window.location.pathname !== ENROLMENT_PAGE) window.location.assign(ENROLMENT_PAGE);
  },
};

let config: ClientConfig = { ...defaultConfig };

export function configureApiClient(next: Partial<ClientConfig>): void {
  config = { ...defaultConfig, ...next };
}

export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${config.baseUrl}${path}${search ? `?${search}` : ''}`;
}

/**
 * A call that was to end this browser's session failed: the session goes on, unless the call was
 * refused because the session had ended already (401), which is then handled as any expiry.
 */
export function leavingFailed(error: unknown): void {
  cancelLeaving();
  if (error instanceof ApiError && error.status === 401) config.onUnauthorized();
}

/** The toast for an HTTP failure or a thrown error (spec section 8). */
export function reportHttpFailure(status: number | undefined, message: string): void {
  switch (status) {
    case 401:
      config.onUnauthorized();
      return;
    case 429:
      showError(i18n.t('errors.tooManyRequests'));
      return;
    case 500:
      showError(i18n.t('errors.internal'));
      return;
    case 405:
      showInfo(i18n.t('errors.demoSite'));
      return;
    default:
      showError(i18n.t('errors.prefixed', { message }));
  }
}

/** The message of anything thrown: its `message`, else the value itself. */
export function describeError(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error && error.message) {
    return String(error.message);
  }
  return String(error);
}

/**
 * A refusal's words in the console's language, from its code and params; the server's own message for
 * a code this console does not know, or none (an older server). The messages of every code, in both
 * languages, load with the first refusal rather than with every page.
 */
export async function refusalText(envelope: Pick<Envelope, 'message' | 'code' | 'params'>): Promise<string> {
  const { isErrorCode, renderError } = await import('@switchyard/contract/render-error');
  if (!isErrorCode(envelope.code)) return envelope.message;
  return renderError(envelope.code, envelope.params, i18n.language === 'zh' ? 'zh' : 'en');
}

/**
 * Statuses whose `{success:false}` envelope is a refusal to show as it is, whichever the server uses:
 * 200 (one-api, this server) or a 4xx. 401 (sign in again), 429 and 5xx keep their own texts.
 */
const isRefusalStatus = (status: number): boolean => status < 500 && status !== 401 && status !== 429;

async function readEnvelope<T>(response: Response): Promise<Envelope<T> | null> {
  const text = await response.text();
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && 'success' in parsed) return parsed as Envelope<T>;
  } catch {
    // Not JSON: handled by the caller as an HTTP failure.
  }
  return null;
}

export async function call<T>(method: string, path: string, options: CallOptions = {}): Promise<Envelope<T>> {
  const init: RequestInit = {
    method,
    credentials: 'include',
    // The console's header: the server runs its state-changing GETs only for this site's calls.
    headers: {
      Accept: 'application/json',
      'Accept-Language': i18n.language,
      [CONSOLE_CALL_HEADER]: CONSOLE_CALL_VALUE,
    },
  };
  if (options.body !== undefined) {
    init.body = JSON.stringify(options.body);
    init.headers = { ...init.headers, 'Content-Type': 'application/json' };
  }
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), init);
  } catch (error) {
    const message = describeError(error);
    if (!options.silent) showError(i18n.t('errors.prefixed', { message }));
    throw new ApiError(message, 'network');
  }
  const envelope = await readEnvelope<T>(response);
  if (envelope && !envelope.success && isRefusalStatus(response.status)) {
    const message = await refusalText(envelope);
    if (envelope.code === 'two_factor_enrolment_required') config.onEnrolmentRequired();
    else if (!options.silent) showError(message || i18n.t('errors.refused'));
    throw new ApiError(message, 'refused', response.status);
  }
  if (!response.ok) {
    const message =
      (envelope && (await refusalText(envelope))) || `${response.status} ${response.statusText}`.trim();
    if (!options.silent || response.status === 401) reportHttpFailure(response.status, message);
    throw new ApiError(message, 'http', response.status);
  }
  if (!envelope) {
    const message = i18n.t('errors.badAnswer');
    if (!options.silent) showError(i18n.t('errors.prefixed', { message }));
    throw new ApiError(message, 'http', response.status);
  }
  return envelope;
}

/** Shorthands returning the envelope of a successful call (data and message). */
export const api = {
  get: <T>(path: string, options?: CallOptions) => call<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: CallOptions) =>
    call<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: CallOptions) => call<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, options?: CallOptions) => call<T>('DELETE', path, options),
};

/** `data` of a successful call, for query functions. */
export async function fetchData<T>(path: string, options?: CallOptions): Promise<T> {
  const envelope = await api.get<T>(path, options);
  return envelope.data as T;
}
