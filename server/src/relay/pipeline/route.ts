import { ChannelStatus } from '@switchyard/contract/roles';
import type { ChannelRow } from '../../db/schema';
import { type MaybePromise, whenReady } from '../../maybe-promise';
import { RelayError } from '../errors';
import type { RelayCaller } from './authenticate';
import type { ChannelRouter } from './channel-router';

/**
 * The channel a call tries first: the one its key pins, else one the router picks for the group and
 * model (at once from memory in the common case: see ChannelRouter.select).
 */
export function firstChannel(
  router: ChannelRouter,
  caller: RelayCaller,
  group: string,
  model: string,
): MaybePromise<ChannelRow> {
  if (caller.pinnedChannelId !== undefined) return pinnedChannel(router, caller.pinnedChannelId);
  return whenReady(router.select(group, model), (channel) => channel ?? noChannel(router, group, model));
}

async function pinnedChannel(router: ChannelRouter, id: number): Promise<ChannelRow> {
  const pinned = await router.channel(id);
  if (!pinned) throw RelayError.gateway(400, 'Invalid channel id', 'invalid_channel_id');
  if (pinned.status !== ChannelStatus.enabled)
    throw RelayError.gateway(403, 'This channel has been disabled', 'channel_disabled');
  return pinned;
}

/**
 * No channel for the model: a model nobody serves is the caller's mistake, answered as each provider
 * answers it (404, no retry); one whose channels are all down for now is worth trying again later (503).
 */
async function noChannel(router: ChannelRouter, group: string, model: string): Promise<never> {
  if ((await router.whyNoChannel(group, model)) === 'down') {
    throw RelayError.gateway(
      503,
      `Every channel serving model ${model} in group ${group} is down right now; please try again later`,
      'model_not_available',
    );
  }
  throw RelayError.invalid(
    `The model '${model}' does not exist or is not served to your group`,
    'model_not_found',
    {
      status: 404,
      param: 'model',
    },
  );
}
