import { TextInput } from '@mantine/core';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { KeywordSearch } from '../lib/use-keyword-search';

/** The keyword box of a list screen: Enter searches, and `onSearch` runs after (back to page 1). */
export function ListSearchBox({
  search,
  placeholder,
  onSearch,
  style,
}: {
  search: KeywordSearch;
  placeholder: string;
  onSearch: () => void;
  style?: CSSProperties;
}) {
  const { t } = useTranslation();
  return (
    <form
      style={style}
      onSubmit={(event) => {
        event.preventDefault();
        search.submit();
        onSearch();
      }}
    >
      <TextInput
        mb={style ? undefined : 'md'}
        placeholder={placeholder}
        aria-label={t('common.search')}
        name="keyword"
        value={search.input}
        onChange={(event) => search.setInput(event.currentTarget.value)}
      />
    </form>
  );
}
