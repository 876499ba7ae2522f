import { allModelNames, modelsByChannelType } from '@switchyard/contract/channel-types';
import { createChannelInput, updateChannelInput } from '@switchyard/contract/channels';
import { renderError } from '@switchyard/contract/render-error';
import type { FastifyInstance } from 'fastify';
import { toApiChannel } from '../../domain/channels';
import { canSeeChannelKeys } from '../../domain/permissions';
import { modelObject } from '../../relay/front/models';
import { languageOf, ok, parseBody, parseId, parsePage, queryText, searchKeyword } from '../envelope';
import type { Services } from '../services';

export function channelRoutes(
  app: FastifyInstance,
  { channels, channelTester, channelBalances }: Services,
): void {
  const admin = { config: { access: 'admin' as const } };
  const adminEffect = { config: { access: 'admin' as const, changesState: true } };
  const revealKeys = (role: number) => canSeeChannelKeys({ role });

  app.get('/api/models', { config: { access: 'user' } }, async () => ok(modelsByChannelType()));
  app.get('/api/channel/models', admin, async () => ({
    success: true,
    message: '',
    object: 'list',
    data: allModelNames().map(modelObject),
  }));

  app.get('/api/channel/', admin, async (request) =>
    ok(
      await channels.list(
        parsePage(queryText(request.query, 'p')),
        queryText(request.query, 'order'),
        revealKeys(request.caller.role),
      ),
    ),
  );
  app.get('/api/channel/search', admin, async (request) =>
    ok(await channels.search(searchKeyword(request.query), revealKeys(request.caller.role))),
  );
  app.get('/api/channel/test', adminEffect, async (request) => {
    const scope = queryText(request.query, 'scope') === 'disabled' ? 'disabled' : 'all';
    channelTester.startAll(scope, (error) => request.log.error({ err: error }, 'channel test run failed'));
    return ok();
  });
  app.get<{ Params: { id: string } }>('/api/channel/test/:id', adminEffect, async (request) => {
    const channel = await channels.getRow(parseId(request.params.id));
    const result = await channelTester.test(channel, queryText(request.query, 'model') || undefined);
    const data = { time: result.time, modelName: result.modelName };
    // A failure reads like any refusal: its code and params, its message in the caller's language.
    const failure = result.failure && {
      message: renderError(result.failure.code, result.failure.params, languageOf(request)),
      code: result.failure.code,
      ...(result.failure.params ? { params: result.failure.params } : {}),
    };
    return {
      success: result.success,
      message: result.message,
      ...failure,
      time: result.time,
      modelName: result.modelName,
      data,
    };
  });
  app.get<{ Params: { id: string } }>('/api/channel/update_balance/:id', adminEffect, async (request) => {
    const balance = await channelBalances.update(parseId(request.params.id));
    return { success: true, message: '', balance, data: { balance } };
  });
  app.delete('/api/channel/disabled', admin, async () => ok(await channels.deleteDisabled()));
  app.get<{ Params: { id: string } }>('/api/channel/:id', admin, async (request) =>
    ok(toApiChannel(await channels.getRow(parseId(request.params.id)), revealKeys(request.caller.role))),
  );
  app.post('/api/channel/', admin, async (request) => {
    const ids = await channels.create(parseBody(createChannelInput, request.body));
    return ok({ ids });
  });
  app.put('/api/channel/', admin, async (request) => {
    const row = await channels.update(parseBody(updateChannelInput, request.body), request.caller);
    return ok(toApiChannel(row, revealKeys(request.caller.role)));
  });
  app.delete<{ Params: { id: string } }>('/api/channel/:id', admin, async (request) => {
    await channels.delete(parseId(request.params.id));
    return ok();
  });
}
