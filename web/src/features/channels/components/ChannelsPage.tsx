import { Paper } from '@mantine/core';
import { channelListOrders } from '@switchyard/contract/channels';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListBody, ListEmpty } from '../../../components/ListBody';
import { ListSearchBox } from '../../../components/ListSearchBox';
import { PageHeader } from '../../../components/PageHeader';
import { listOrder } from '../../../lib/list-order';
import { useKeywordSearch } from '../../../lib/use-keyword-search';
import { useListPaging } from '../../../lib/use-list-paging';
import { useTypeModels } from '../api/channel-models';
import { type ChannelOrder, useChannelPages, useChannelSearch } from '../api/channels-list';
import { ChannelCards } from './ChannelCards';
import { ChannelsNote } from './ChannelsNote';
import { ChannelsTable } from './ChannelsTable';
import { ChannelsToolbar } from './ChannelsToolbar';

const ORDERS: ChannelOrder[] = ['', ...channelListOrders];

/** /channel (admin): searchable, server-paged and sorted channels with inline priority and weight. */
export function ChannelsPage() {
  const { t } = useTranslation();
  const orderState = useState<ChannelOrder>('');
  const search = useKeywordSearch();
  const pages = useChannelPages(orderState[0]);
  const found = useChannelSearch(search.keyword);
  const list = useListPaging(pages, found, search.searching);
  const order = listOrder('channels', ORDERS, orderState, search, list);
  // The form pre-fills models from this map; loading it here keeps it warm, as one-api does.
  useTypeModels();

  return (
    <>
      <PageHeader title={t('channels.title')}>
        <ChannelsToolbar
          onRefresh={list.refresh}
          refreshing={list.refreshing}
          onDisabledDeleted={list.reset}
        />
      </PageHeader>
      <ChannelsNote />
      <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
        <ListSearchBox
          search={search}
          placeholder={t('channels.search')}
          onSearch={list.reset}
          order={order}
        />
        <ListBody
          list={list}
          loadingPage={t('pageNames.channel')}
          empty={<ListEmpty section="channels" searching={search.searching} addTo="/channel/add" />}
          cards={(channels) => <ChannelCards channels={channels} />}
          table={(channels) => <ChannelsTable channels={channels} order={order} />}
        />
      </Paper>
    </>
  );
}
