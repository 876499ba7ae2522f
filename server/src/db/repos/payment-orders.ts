import { ITEMS_PER_PAGE } from '@switchyard/contract/envelope';
import { type OrderStatus, UNPAID_STATUSES } from '@switchyard/contract/payments';
import type { Insertable } from 'kysely';
import type { Sql } from '../connect';
import { insertReturningId } from '../insert';
import type { PaymentOrderRow, PaymentOrdersTable } from '../schema';

export const insertPaymentOrder = (db: Sql, row: Insertable<PaymentOrdersTable>): Promise<number> =>
  insertReturningId(db, db.kysely.insertInto('payment_orders').values(row));

export const findPaymentOrder = (db: Sql, id: number): Promise<PaymentOrderRow | undefined> =>
  db.kysely.selectFrom('payment_orders').selectAll().where('id', '=', id).executeTakeFirst();

export const findPaymentOrderByTradeNo = (db: Sql, tradeNo: string): Promise<PaymentOrderRow | undefined> =>
  db.kysely.selectFrom('payment_orders').selectAll().where('trade_no', '=', tradeNo).executeTakeFirst();

/** A page of orders, newest first: one user's, or everyone's (`userId` undefined). */
export function listPaymentOrders(
  db: Sql,
  filter: { userId?: number; status?: OrderStatus },
  page: number,
): Promise<PaymentOrderRow[]> {
  let query = db.kysely.selectFrom('payment_orders').selectAll();
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  return query
    .orderBy('id', 'desc')
    .limit(ITEMS_PER_PAGE)
    .offset(page * ITEMS_PER_PAGE)
    .execute();
}

async function changedOne(result: Promise<{ numUpdatedRows: bigint }>): Promise<boolean> {
  return Number((await result).numUpdatedRows) === 1;
}

export const setPaymentOrderRef = (db: Sql, id: number, providerRef: string, now: number): Promise<boolean> =>
  changedOne(
    db.kysely
      .updateTable('payment_orders')
      .set({ provider_ref: providerRef, updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst(),
  );

/**
 * Moves an unpaid order to paid in one conditional statement: of any number of notifications racing
 * for it, in any number of processes, exactly one changes the row. Answers whether this call was it.
 */
export const markPaymentOrderPaid = (
  db: Sql,
  id: number,
  providerRef: string,
  now: number,
): Promise<boolean> =>
  changedOne(
    db.kysely
      .updateTable('payment_orders')
      .set({ status: 'paid', provider_ref: providerRef, paid_at: now, updated_at: now })
      .where('id', '=', id)
      .where('status', 'in', [...UNPAID_STATUSES])
      .executeTakeFirst(),
  );

/** A pending order the gateway closed (expired, failed); any other state is kept. */
export const closePaymentOrder = (
  db: Sql,
  id: number,
  status: 'expired' | 'failed',
  now: number,
): Promise<boolean> =>
  changedOne(
    db.kysely
      .updateTable('payment_orders')
      .set({ status, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst(),
  );

/** Notes why a notification for this order was refused (its state is kept). */
export const notePaymentOrderError = (db: Sql, id: number, error: string, now: number): Promise<boolean> =>
  changedOne(
    db.kysely
      .updateTable('payment_orders')
      .set({ error: error.slice(0, 512), updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst(),
  );

/** Paid → refunded, once (the quota taken back is noted next, in the same transaction). */
export const markPaymentOrderRefunded = (db: Sql, id: number, now: number): Promise<boolean> =>
  changedOne(
    db.kysely
      .updateTable('payment_orders')
      .set({ status: 'refunded', updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'paid')
      .executeTakeFirst(),
  );

export const setPaymentOrderRefundedQuota = (db: Sql, id: number, taken: number): Promise<boolean> =>
  changedOne(
    db.kysely
      .updateTable('payment_orders')
      .set({ refunded_quota: taken })
      .where('id', '=', id)
      .executeTakeFirst(),
  );
