import {
  type PaymentMethod,
  parseAmountOptions,
  priceInMinorUnits,
  TOP_UP_MAX_MONEY,
  type TopUpOffer,
} from '@switchyard/contract/payments';
import { DomainError } from '../errors';
import type { OptionsStore } from '../options';

/** What the top-up page offers, from the options root set. */
export function topUpOffer(options: OptionsStore): TopUpOffer {
  const methods: PaymentMethod[] = [];
  if (options.bool('StripeEnabled')) methods.push('stripe');
  if (options.bool('EPayEnabled')) methods.push('epay');
  return {
    methods,
    amounts: parseAmountOptions(options.get('TopUpAmountOptions')) ?? [],
    min_amount: Math.max(1, options.number('TopUpMinAmount')),
    unit_price: priceInMinorUnits(options.get('TopUpUnitPrice')) ?? 0,
    currency: options.get('TopUpCurrency'),
    quota_per_unit: options.number('QuotaPerUnit'),
  };
}

/** An order's price and quota for `amount` units, or the refusal when it cannot be bought. */
export function priceOrder(
  offer: TopUpOffer,
  method: PaymentMethod,
  amount: number,
): { money: number; quota: number } {
  if (!offer.methods.includes(method) || offer.unit_price <= 0)
    throw new DomainError('topup_method_disabled');
  if (amount < offer.min_amount) throw new DomainError('topup_amount_below_min', { min: offer.min_amount });
  const money = amount * offer.unit_price;
  const quota = Math.round(amount * offer.quota_per_unit);
  if (money > TOP_UP_MAX_MONEY || !Number.isSafeInteger(quota) || quota <= 0) {
    throw new DomainError('topup_money_too_large');
  }
  return { money, quota };
}
