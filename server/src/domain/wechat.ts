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
    throw new DomainError('wechat_login_disabled');
  }
  const address = trimBaseUrl(options.get('WeChatServerAddress'));
  if (!address) throw new DomainError('wechat_address_missing');
  const url = `${address}/api/wechat/user?code=${encodeURIComponent(code)}`;
  const reply = await requestJson('wechat', url, {
    headers: { authorization: options.get('WeChatServerToken') },
  });
  const parsed = answer.safeParse(reply.body);
  if (!parsed.success) throw new DomainError('wechat_bad_answer');
  if (parsed.data.success === false) {
    throw parsed.data.message
      ? new DomainError('wechat_refused_because', { reason: parsed.data.message })
      : new DomainError('wechat_refused');
  }
  if (!parsed.data.data) throw new DomainError('verification_code_invalid');
  return parsed.data.data;
}
