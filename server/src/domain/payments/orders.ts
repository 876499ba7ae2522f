import type {
  CreateOrderInput,
  OrderStatus,
  PaymentMethod,
  PaymentOrder,
  RefundResult,
} from '@switchyard/contract/payments';
import { LogType } from '@switchyard/contract/roles';
import { nowSeconds } from '../../clock';
import type { Sql } from '../../db/connect';
import { insertLog } from '../../db/repos/logs';
import {
  closePaymentOrder,
  findPaymentOrder,
  findPaymentOrderByTradeNo,
  insertPaymentOrder,
  listPaymentOrders,
  markPaymentOrderPaid,
  markPaymentOrderRefunded,
  notePaymentOrderError,
  setPaymentOrderRef,
  setPaymentOrderRefundedQuota,
} from '../../db/repos/payment-orders';
import { addUserQuota, lockedUserQuota, takeUserQuota } from '../../db/repos/users';
import type { PaymentOrderRow } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import type { AuditLog } from '../audit/audit-log';
import { DomainError } from '../errors';
import type { OptionsStore } from '../options';
import type { Actor } from '../permissions';
import { quotaText } from '../quota-text';
import { randomHex } from '../random';
import { priceOrder, topUpOffer } from './offer';

export const toApiOrder = (row: PaymentOrderRow): PaymentOrder => ({
  id: Number(row.id),
  trade_no: row.trade_no,
  user_id: Number(row.user_id),
  username: row.username,
  method: row.method as PaymentMethod,
  amount: Number(row.amount),
  quota: Number(row.quota),
  money: Number(row.money),
  currency: row.currency,
  status: row.status as OrderStatus,
  refunded_quota: Number(row.refunded_quota),
  error: row.error,
  created_at: Number(row.created_at),
  paid_at: Number(row.paid_at),
  updated_at: Number(row.updated_at),
});

/** A gateway's word that an order was paid: what it says was paid, never what to credit. */
export interface PaymentNotice {
  tradeNo: string;
  method: PaymentMethod;
  /** The gateway's own id of the payment. */
  providerRef: string;
  money: number | null;
  /** Null when the gateway names no currency (EPay): its amount is in the order's. */
  currency: string | null;
  ip: string;
}

export type CreditOutcome = 'credited' | 'already_paid' | 'unknown_order' | 'refused';

/** The gateway as the audit log's actor of what its notifications did. */
const gatewayActor = (method: PaymentMethod): Actor => ({ id: 0, username: method, role: 0 });

/**
 * Online top-up orders: made pending, credited exactly once when a gateway says they were paid (the
 * move to paid and the credit in one transaction, the move guarded by the order's state), closed
 * when a gateway says they expired or failed, refunded by root.
 */
export class PaymentOrders {
  constructor(
    private readonly deps: {
      db: Sql;
      options: OptionsStore;
      audit: AuditLog;
      /** Told after quota was taken back, so every process gives back the credit it holds for the user. */
      onUserChanged?: (id: number) => void;
    },
  ) {}

  /** A new pending order of the caller's. */
  async create(actor: Actor, input: CreateOrderInput): Promise<PaymentOrderRow> {
    const { db, options } = this.deps;
    const offer = topUpOffer(options);
    const { money, quota } = priceOrder(offer, input.method, input.amount);
    const now = nowSeconds();
    const tradeNo = `SY${now}${randomHex(12)}`;
    const id = await insertPaymentOrder(db, {
      trade_no: tradeNo,
      user_id: actor.id,
      username: actor.username,
      method: input.method,
      amount: input.amount,
      quota,
      money,
      currency: offer.currency,
      status: 'pending',
      provider_ref: '',
      refunded_quota: 0,
      error: '',
      created_at: now,
      paid_at: 0,
      updated_at: now,
    });
    return this.#row(id);
  }

  /** The gateway's id of the payment an order was started with (a Checkout Session). */
  async started(order: PaymentOrderRow, providerRef: string): Promise<void> {
    await setPaymentOrderRef(this.deps.db, Number(order.id), providerRef, nowSeconds());
  }

  /** An order whose payment could not be started. */
  async notStarted(order: PaymentOrderRow): Promise<void> {
    await closePaymentOrder(this.deps.db, Number(order.id), 'failed', nowSeconds());
  }

  #findByTradeNo(tradeNo: string): Promise<PaymentOrderRow | undefined> {
    return findPaymentOrderByTradeNo(this.deps.db, tradeNo);
  }

  async own(actor: Actor, tradeNo: string): Promise<PaymentOrderRow> {
    const row = await this.#findByTradeNo(tradeNo);
    if (!row || Number(row.user_id) !== actor.id) throw new DomainError('topup_order_not_found');
    return row;
  }

  async list(filter: { userId?: number; status?: OrderStatus }, page: number): Promise<PaymentOrder[]> {
    return (await listPaymentOrders(this.deps.db, filter, page)).map(toApiOrder);
  }

  /**
   * Credits the order a gateway says was paid, at most once whatever arrives how often, in which order
   * and in how many processes. The quota is the order's; a notice whose amount or currency differs
   * from the order's is refused and noted on the order and in the audit log.
   */
  async credit(notice: PaymentNotice): Promise<CreditOutcome> {
    const { db, options, audit } = this.deps;
    const order = await this.#findByTradeNo(notice.tradeNo);
    if (!order || order.method !== notice.method) return 'unknown_order';
    const money = Number(order.money);
    // A Stripe order knows its Checkout Session from the start; EPay names its payment only when paid.
    const otherPayment = order.method === 'stripe' && order.provider_ref !== notice.providerRef;
    const currency = notice.currency ?? order.currency;
    if (notice.money !== money || currency !== order.currency || otherPayment) {
      const error = otherPayment
        ? `refused a payment of session ${notice.providerRef.slice(0, 100)}: the order's is ${order.provider_ref}`
        : `refused a payment of ${notice.money ?? '?'} ${currency || '?'} (minor units) for an order of ${money} ${order.currency}`;
      await inTransaction(db, async (tx) => {
        await notePaymentOrderError(tx, Number(order.id), error, nowSeconds());
        await audit.record(
          {
            actor: gatewayActor(notice.method),
            ip: notice.ip,
            action: 'topup.refused',
            targetType: 'user',
            target: { id: String(order.user_id), name: order.username, fields: {} },
            details: {
              trade_no: order.trade_no,
              paid: notice.money,
              currency,
              expected: money,
              ...(otherPayment ? { session: notice.providerRef.slice(0, 100) } : {}),
            },
          },
          tx,
        );
      });
      return 'refused';
    }
    const quota = Number(order.quota);
    return inTransaction(db, async (tx) => {
      if (!(await markPaymentOrderPaid(tx, Number(order.id), notice.providerRef, nowSeconds()))) {
        return 'already_paid';
      }
      await addUserQuota(tx, Number(order.user_id), quota);
      await insertLog(tx, {
        user_id: Number(order.user_id),
        username: order.username,
        type: LogType.topup,
        quota,
        content: `Paid online for ${quotaText(options, quota)} (order ${order.trade_no})`,
        facts: {
          kind: 'online_top_up',
          quota,
          trade_no: order.trade_no,
          method: order.method,
          money,
          currency: order.currency,
        },
      });
      await audit.record(
        {
          actor: gatewayActor(notice.method),
          ip: notice.ip,
          action: 'topup.paid',
          targetType: 'user',
          target: { id: String(order.user_id), name: order.username, fields: {} },
          details: { trade_no: order.trade_no, quota, money, currency: order.currency },
        },
        tx,
      );
      return 'credited';
    });
  }

  /** The gateway closed a pending order (an expired session, a failed payment); a paid one stays paid. */
  async close(tradeNo: string, method: PaymentMethod, status: 'expired' | 'failed'): Promise<void> {
    const order = await this.#findByTradeNo(tradeNo);
    if (order && order.method === method)
      await closePaymentOrder(this.deps.db, Number(order.id), status, nowSeconds());
  }

  /**
   * Root refunds a paid order: marked refunded and its quota taken back in one transaction, never
   * below zero; what the user already spent is not taken, and the answer and the log say how much.
   */
  async refund(actor: Actor, id: number, ip: string): Promise<RefundResult> {
    const { db, options, audit } = this.deps;
    const order = await this.#row(id);
    const ordered = Number(order.quota);
    const userId = Number(order.user_id);
    const result = await inTransaction(db, async (tx) => {
      if (!(await markPaymentOrderRefunded(tx, Number(order.id), nowSeconds()))) {
        throw new DomainError('topup_order_not_paid');
      }
      const balance = Math.max(0, (await lockedUserQuota(tx, userId)) ?? 0);
      const taken = Math.min(ordered, balance);
      await setPaymentOrderRefundedQuota(tx, Number(order.id), taken);
      // The row is locked: the guard can only fail if something else broke the lock.
      if (taken > 0 && !(await takeUserQuota(tx, userId, taken)))
        throw new Error('refund: the balance moved');
      await insertLog(tx, {
        user_id: userId,
        username: order.username,
        type: LogType.manage,
        quota: taken,
        content: `Administrator ${actor.username} refunded order ${order.trade_no}: took back ${quotaText(options, taken)} of ${quotaText(options, ordered)}`,
        facts: { kind: 'top_up_refund', quota: taken, ordered, trade_no: order.trade_no, by: actor.username },
      });
      await audit.record(
        {
          actor,
          ip,
          action: 'topup.refund',
          targetType: 'user',
          target: { id: String(userId), name: order.username, fields: {} },
          details: { trade_no: order.trade_no, quota: ordered, taken, short: ordered - taken },
        },
        tx,
      );
      return { taken, short: ordered - taken };
    });
    this.deps.onUserChanged?.(userId);
    return result;
  }

  async #row(id: number): Promise<PaymentOrderRow> {
    const row = await findPaymentOrder(this.deps.db, id);
    if (!row) throw new DomainError('topup_order_not_found');
    return row;
  }
}
