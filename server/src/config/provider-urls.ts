import { trimBaseUrl } from '@switchyard/contract/base-url';
import { type Env, fail } from './env';

export interface ProviderUrls {
  githubOAuth: string;
  githubApi: string;
  larkApi: string;
  larkPassport: string;
  turnstileVerify: string;
  stripeApi: string;
}

/** An http(s) URL without a trailing slash. */
function readUrl(env: Env, variable: string, fallback: string): string {
  const raw = env[variable]?.trim();
  if (!raw) return fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail(variable, `expected an http:// or https:// URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    fail(variable, `expected an http:// or https:// URL, got "${raw}"`);
  }
  return trimBaseUrl(raw);
}

export function readProviderUrls(env: Env): ProviderUrls {
  return {
    githubOAuth: readUrl(env, 'GITHUB_OAUTH_URL', 'https://github.com'),
    githubApi: readUrl(env, 'GITHUB_API_URL', 'https://api.github.com'),
    larkApi: readUrl(env, 'LARK_API_URL', 'https://open.feishu.cn'),
    larkPassport: readUrl(env, 'LARK_PASSPORT_URL', 'https://passport.feishu.cn'),
    turnstileVerify: readUrl(
      env,
      'TURNSTILE_VERIFY_URL',
      'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    ),
    stripeApi: readUrl(env, 'STRIPE_API_URL', 'https://api.stripe.com'),
  };
}
