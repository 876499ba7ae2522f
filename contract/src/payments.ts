import { z } from 'zod';

/** Online top-up: the two payment gateways, an order's states, and the prices the top-up page shows. */
export const PAYMENT_METHODS = ['stripe', 'epay'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** EPay's payment types (易支付 `type`). */
export const EPAY_TYPES = ['alipay', 'wxpay'] as const;
export type EPayType = (typeof EPAY_TYPES)[number];

/**
 * pending → paid → refunded; pending → expired or failed (the gateway said so). A payment that arrives
 * for an expired or failed order still credits it: the money was received.
 */
export const ORDER_STATUSES = ['pending', 'paid', 'expired', 'failed', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const UNPAID_STATUSES: readonly OrderStatus[] = ['pending', 'expired', 'failed'];

/** Bounds of one order: the units it buys, and what it may cost in minor units (Stripe's own limit). */
export const TOP_UP_MAX_AMOUNT = 1_000_000;
export const TOP_UP_MAX_MONEY = 99_999_999;

export interface PaymentOrder {
  id: number;
  trade_no: string;
  user_id: number;
  username: string;
  method: PaymentMethod;
  /** Units of quota bought (one unit is QuotaPerUnit quota). */
  amount: number;
  quota: number;
  /** What it costs, in the currency's minor units (cents, fen). */
  money: number;
  currency: string;
  status: OrderStatus;
  /** The quota taken back by a refund (at most `quota`: what the user still had). */
  refunded_quota: number;
  /** The last notification refused for this order (its amount or currency differed), else empty. */
  error: string;
  created_at: number;
  paid_at: number;
  updated_at: number;
}

/** What the top-up page offers: the enabled gateways and the prices root set. */
export interface TopUpOffer {
  methods: PaymentMethod[];
  /** The amounts offered as buttons, in units. */
  amounts: number[];
  /** The smallest amount one order may buy, in units. */
  min_amount: number;
  /** The price of one unit, in minor units of `currency`. */
  unit_price: number;
  currency: string;
  quota_per_unit: number;
}

export interface CreatedOrder {
  trade_no: string;
  /** Where the browser goes to pay. */
  url: string;
}

export interface RefundResult {
  /** The quota taken back. */
  taken: number;
  /** What the user had already spent of the order's quota (not taken back). */
  short: number;
}

export const createOrderInput = z.object({
  method: z.enum(PAYMENT_METHODS, { error: 'method must be stripe or epay' }),
  amount: z
    .number({ error: 'amount must be a number' })
    .int('amount must be a whole number')
    .positive('amount must be positive')
    .max(TOP_UP_MAX_AMOUNT, `amount is at most ${TOP_UP_MAX_AMOUNT}`),
  epay_type: z.enum(EPAY_TYPES, { error: 'epay_type must be alipay or wxpay' }).optional(),
});
export type CreateOrderInput = z.infer<typeof createOrderInput>;

const DECIMAL_PRICE = /^(0|[1-9]\d{0,7})(\.\d{1,2})?$/;

/** A price option ("7.30") in minor units (730), or undefined when it is not a price with at most two decimals. */
export function priceInMinorUnits(text: string): number | undefined {
  const trimmed = text.trim();
  if (!DECIMAL_PRICE.test(trimmed)) return undefined;
  const [whole = '0', fraction = ''] = trimmed.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Minor units as the decimal text gateways expect ("7.30"). */
export const minorUnitsText = (minor: number): string =>
  `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;

/** The amount options ("10,20,50"): positive whole numbers, or undefined when the list is not that. */
export function parseAmountOptions(text: string): number[] | undefined {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const amounts = parts.map(Number);
  const valid = amounts.every(
    (amount, index) => /^[1-9]\d*$/.test(parts[index] ?? '') && amount <= TOP_UP_MAX_AMOUNT,
  );
  return valid && amounts.length <= 12 ? amounts : undefined;
}

/**
 * Whether prices can be kept in hundredths of `code` (an upper-case ISO 4217 code): not the currencies
 * Stripe counts without decimals (JPY, KRW…) or in thousandths (BHD, KWD…).
 */
export const isTwoDecimalCurrency = (code: string): boolean =>
  /^[A-Z]{3}$/.test(code) && !OTHER_DECIMAL_CURRENCIES.has(code);

const OTHER_DECIMAL_CURRENCIES = new Set(
  'BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF BHD JOD KWD OMR TND'.split(' '),
);
