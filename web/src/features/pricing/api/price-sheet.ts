import type { PriceSheet } from '@switchyard/contract/pricing';
import { useQuery } from '@tanstack/react-query';
import { fetchData } from '../../../lib/api-client';

/** The price list: the signed-in user's group, else what visitors may see (refused when not public). */
export function usePriceSheet(signedIn: boolean) {
  return useQuery({
    queryKey: ['pricing', signedIn ? 'own' : 'public'],
    queryFn: () =>
      fetchData<PriceSheet>(signedIn ? '/api/pricing' : '/api/pricing/public', { silent: !signedIn }),
    retry: false,
  });
}
