import { trimBaseUrl } from '@switchyard/contract/base-url';
import { z } from 'zod';
import { DomainError } from './errors';
import type { OptionsStore } from './options';
import { requestJson } from './outbound-json';

const answer = z.object({
  success: z.boolean().optional(),
  message: z.string().optional(),
  data: z.string().nullish(),
});

/**
 * The WeChat official-account server (a separate service the administrator runs) turns the code a
 * visitor read off the QR dialog into their WeChat id.
 */
export async function fetchWeChatId(options: OptionsStore, code: string): Promise<string> {
  if (!options.bool('WeChatAuthEnabled')) {
    throw new DomainError('The administrator has not enabled sign-in with WeChat');
  }
  const address = trimBaseUrl(options.get('WeChatServerAddress'));
  if (!address) throw new DomainError('The administrator has not configured the WeChat server address');
  const url = `${address}/api/wechat/user?code=${encodeURIComponent(code)}`;
  const reply = await requestJson('the WeChat server', url, {
    headers: { authorization: options.get('WeChatServerToken') },
  });
  const parsed = answer.safeParse(reply.body);
  if (!parsed.success) throw new DomainError('The WeChat server gave an answer that could not be read');
  if (parsed.data.success === false) {
    throw new DomainError(parsed.data.message || 'The WeChat server refused the verification code');
  }
  if (!parsed.data.data) throw new DomainError('The verification code is wrong or has expired');
  return parsed.data.data;
}
