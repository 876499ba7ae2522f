import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../components/PageLoading';
import type { enShell } from '../i18n/en/shell';
import { loadPageMessages } from '../i18n/i18n';

export type PageName = keyof typeof enShell.pageNames;

function LazyRoute({ page: Page, name }: { page: LazyExoticComponent<ComponentType>; name: PageName }) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<PageLoading page={t(`pageNames.${name}`)} />}>
      <Page />
    </Suspense>
  );
}

/**
 * A page as its own lazily loaded chunk, with the loading placeholder named after it. The messages of
 * the pages beyond the shell and sign-in load alongside.
 */
export function lazyPage<K extends string>(
  load: () => Promise<Record<K, ComponentType>>,
  exportName: K,
  name: PageName,
) {
  const page = lazy(async () => {
    const [module] = await Promise.all([load(), loadPageMessages()]);
    const component: ComponentType = module[exportName];
    return { default: component };
  });
  return <LazyRoute page={page} name={name} />;
}
