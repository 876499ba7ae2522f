import { z } from 'zod';
import { DomainError } from './errors';
import type { OptionsStore } from './options';
import { requestJson } from './outbound-json';

const answer = z.object({ success: z.boolean() });

/** Cloudflare Turnstile: the bot check in front of registration and mail sending (TurnstileCheckEnabled). */
export class TurnstileCheck {
  constructor(private readonly deps: { options: OptionsStore; verifyUrl: string }) {}

  enabled(): boolean {
    return this.deps.options.bool('TurnstileCheckEnabled');
  }

  /** Asks Cloudflare whether the token the widget produced is good; refuses when it is not. */
  async verify(token: string, clientIp: string): Promise<void> {
    if (!token) throw new DomainError('turnstile_empty');
    const form = new URLSearchParams({
      secret: this.deps.options.get('TurnstileSecretKey'),
      response: token,
      remoteip: clientIp,
    });
    const reply = await requestJson('turnstile', this.deps.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    const parsed = answer.safeParse(reply.body);
    if (!parsed.success || !parsed.data.success) {
      throw new DomainError('turnstile_failed');
    }
  }
}
