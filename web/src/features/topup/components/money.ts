import type { TopUpOffer } from '@switchyard/contract/payments';

/** Minor units of `currency` as the reader's language writes money ("$12.50", "US$12.50", "¥12.50"). */
export function renderMoney(minor: number, currency: string, language: string): string {
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency }).format(minor / 100);
  } catch {
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
}

/** What `amount` units cost under `offer`, in minor units. */
export const priceOf = (offer: TopUpOffer, amount: number): number => amount * offer.unit_price;
