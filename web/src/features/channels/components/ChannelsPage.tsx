import { Button, Paper, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyPanel } from '../../../components/EmptyPanel';
import { ListPagination } from '../../../components/ListPagination';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoading } from '../../../components/PageLoading';
import { useListPaging } from '../../../lib/use-list-paging';
import { useTypeModels } from '../api/channel-models';
import { useChannelPages, useChannelSearch } from '../api/channels-list';
import { ChannelCards } from './ChannelCards';
import { ChannelsNote } from './ChannelsNote';
import { ChannelsTable } from './ChannelsTable';
import { ChannelsToolbar } from './ChannelsToolbar';

/** /channel (admin): searchable, server-paged channels with inline priority and weight. */
export function ChannelsPage() {
  const { t } = useTranslation();
  const [keywordInput, setKeywordInput] = useState('');
  const [keyword, setKeyword] = useState('');
  const pages = useChannelPages();
  const search = useChannelSearch(keyword);
  const searching = keyword !== '';
  const list = useListPaging(pages, search, searching);
  const phone = useMediaQuery('(max-width: 36em)');
  // The form pre-fills models from this map; loading it here keeps it warm, as one-api does.
  useTypeModels();

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    setKeyword(keywordInput.trim());
    list.reset();
  };

  const refresh = () => {
    list.reset();
    void (searching ? search.refetch() : pages.refetch());
  };

  return (
    <>
      <PageHeader title={t('channels.title')}>
        <ChannelsToolbar
          onRefresh={refresh}
          refreshing={pages.isRefetching || search.isRefetching}
          onDisabledDeleted={list.reset}
        />
      </PageHeader>
      <ChannelsNote />
      <Paper withBorder p={{ base: 'sm', sm: 'md' }}>
        <form onSubmit={submitSearch}>
          <TextInput
            mb="md"
            placeholder={t('channels.search')}
            aria-label={t('common.search')}
            name="keyword"
            value={keywordInput}
            onChange={(event) => setKeywordInput(event.currentTarget.value)}
          />
        </form>
        {list.loading ? (
          <PageLoading page={t('pageNames.channel')} />
        ) : list.visible.length === 0 ? (
          <EmptyPanel
            title={searching ? t('channels.noMatch') : t('channels.empty')}
            text={searching ? t('channels.noMatchText') : t('channels.emptyText')}
          >
            {!searching && (
              <Button component={Link} to="/channel/add" variant="light">
                {t('channels.add')}
              </Button>
            )}
          </EmptyPanel>
        ) : phone ? (
          <ChannelCards channels={list.visible} />
        ) : (
          <ChannelsTable channels={list.visible} />
        )}
        <ListPagination total={list.total} value={list.page} onChange={(next) => void list.goTo(next)} />
      </Paper>
    </>
  );
}
