import { createOrderInput, ORDER_STATUSES, type OrderStatus } from '@switchyard/contract/payments';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { EPAY_NOTIFY_PATH } from '../../domain/payments/checkout';
import { epayParams } from '../../domain/payments/epay';
import type { NotificationAnswer } from '../../domain/payments/notifications';
import { topUpOffer } from '../../domain/payments/offer';
import { toApiOrder } from '../../domain/payments/orders';
import { ok, parseBody, parseId, parsePage, queryText } from '../envelope';
import type { Services } from '../services';

/** A notification's body: a Stripe event is a few kilobytes, an EPay form a few hundred bytes. */
const NOTIFICATION_BODY_LIMIT = 256 * 1024;

export function paymentRoutes(app: FastifyInstance, services: Services): void {
  const { options, paymentOrders, paymentCheckout, paymentNotifications } = services;
  const user = { config: { access: 'user' as const } };
  const root = { config: { access: 'root' as const } };

  app.get('/api/topup/offer', user, async () => ok(topUpOffer(options)));
  app.post('/api/topup/order', user, async (request) =>
    ok(await paymentCheckout.start(request.caller, parseBody(createOrderInput, request.body))),
  );
  app.get('/api/topup/order/self', user, async (request) =>
    ok(await paymentOrders.list({ userId: request.caller.id }, parsePage(queryText(request.query, 'p')))),
  );
  app.get<{ Params: { tradeNo: string } }>('/api/topup/order/self/:tradeNo', user, async (request) =>
    ok(
      toApiOrder(await paymentCheckout.own(request.caller, request.params.tradeNo.slice(0, 64), request.ip)),
    ),
  );
  app.get('/api/topup/order/', root, async (request) => {
    const status = queryText(request.query, 'status');
    const filter = (ORDER_STATUSES as readonly string[]).includes(status)
      ? { status: status as OrderStatus }
      : {};
    return ok(await paymentOrders.list(filter, parsePage(queryText(request.query, 'p'))));
  });
  app.post<{ Params: { id: string } }>('/api/topup/order/:id/refund', root, async (request) =>
    ok(await paymentOrders.refund(request.caller, parseId(request.params.id), request.ip)),
  );

  const reply = (answerTo: FastifyReply, answer: NotificationAnswer, type: string) => {
    const level = answer.outcome === 'forged' || answer.outcome === 'refused' ? 'warn' : 'info';
    answerTo.log[level]({ outcome: answer.outcome }, 'payment notification');
    return answerTo.code(answer.status).type(type).send(answer.body);
  };

  // The gateways call these: their bodies are read here as the gateways send them (Stripe's
  // signature covers the raw bytes; EPay posts a form), not as the console's JSON.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: NOTIFICATION_BODY_LIMIT },
      (_r, body, done) => done(null, body),
    );
    scope.post(
      '/api/topup/stripe/webhook',
      { bodyLimit: NOTIFICATION_BODY_LIMIT },
      async (request, answerTo) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = String(request.headers['stripe-signature'] ?? '');
        const answer = await paymentNotifications.stripe(body, signature, request.ip);
        return reply(answerTo, answer, 'application/json');
      },
    );
    const epay = async (params: unknown, ip: string, answerTo: FastifyReply) =>
      reply(answerTo, await paymentNotifications.epay(epayParams(params), ip), 'text/plain');
    scope.get(EPAY_NOTIFY_PATH, async (request, answerTo) => epay(request.query, request.ip, answerTo));
    scope.post(EPAY_NOTIFY_PATH, { bodyLimit: NOTIFICATION_BODY_LIMIT }, async (request, answerTo) => {
      const form = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
      return epay(formFields(form), request.ip, answerTo);
    });
  });
}

/** A form body's fields; a field given twice makes it no valid notification. */
function formFields(form: string): Record<string, string> | undefined {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(form)) {
    if (Object.hasOwn(fields, name)) return undefined;
    fields[name] = value;
  }
  return fields;
}
