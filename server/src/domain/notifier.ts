import { z } from 'zod';
import type { Sql } from '../db/connect';
import { findRootUser } from '../db/repos/user-identities';
import type { ChannelRow } from '../db/schema';
import { DomainError } from './errors';
import { escapeHtml, type Mailer } from './mail';
import type { OptionsStore } from './options';
import { requestJson } from './outbound-json';

const pusherAnswer = z.object({ success: z.boolean(), message: z.string().optional() });

/**
 * Tells the super administrator about things that need a person: through Message Pusher when
 * MessagePusherAddress is set, otherwise by mail to root's address.
 */
export class Notifier {
  constructor(private readonly deps: { db: Sql; options: OptionsStore; mailer: Mailer }) {}

  async notifyRoot(title: string, content: string): Promise<void> {
    const { options } = this.deps;
    const pusher = options.get('MessagePusherAddress').trim();
    if (pusher) return this.#push(pusher, title, content);
    const root = await findRootUser(this.deps.db);
    if (!root?.email) {
      throw new DomainError('notify_no_target');
    }
    await this.deps.mailer.send({
      to: root.email,
      subject: title,
      html: `<p>${escapeHtml(content)}</p>`,
    });
  }

  async #push(address: string, title: string, content: string): Promise<void> {
    const reply = await requestJson('pusher', address, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title,
        description: content,
        content,
        token: this.deps.options.get('MessagePusherToken'),
      }),
    });
    const parsed = pusherAnswer.safeParse(reply.body);
    if (!parsed.success || !parsed.data.success) {
      const reason = parsed.success ? parsed.data.message : undefined;
      throw reason
        ? new DomainError('pusher_refused_because', { reason })
        : new DomainError('pusher_refused');
    }
  }
}

export interface NotifyLog {
  warn(details: object, message: string): void;
}

/** Channel switches (auto-disable, auto-enable) as notices to root; a failed notice is only logged. */
export function channelAlerts(notifier: Notifier, log?: NotifyLog) {
  const send = (title: string, content: string) => {
    notifier
      .notifyRoot(title, content)
      .catch((error: unknown) =>
        log?.warn(
          { reason: error instanceof Error ? error.message : String(error) },
          'channel notice not sent',
        ),
      );
  };
  const name = (channel: ChannelRow) => `"${channel.name}" (#${channel.id})`;
  return {
    channelDisabled(channel: ChannelRow, reason: string): void {
      send('Channel status change', `Channel ${name(channel)} has been disabled automatically: ${reason}`);
    },
    channelEnabled(channel: ChannelRow): void {
      send('Channel status change', `Channel ${name(channel)} has been enabled again: its test passed`);
    },
  };
}
