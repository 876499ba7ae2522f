import { ScrollArea, Tabs } from '@mantine/core';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyPanel } from '../../../components/EmptyPanel';
import { PageHeader } from '../../../components/PageHeader';
import { PageLoading } from '../../../components/PageLoading';
import { isAdmin, isRoot, useSessionUser } from '../../../lib/session';
import { type OptionValues, useOptions } from '../api/options';
import { PersonalTab } from './PersonalTab';
import { RootOnlyNotice } from './RootOnlyNotice';

// The option tabs (and the option catalogue with its model ratio table) load only when opened.
const OperationTab = lazy(() => import('./OperationTab').then((m) => ({ default: m.OperationTab })));
const SystemTab = lazy(() => import('./SystemTab').then((m) => ({ default: m.SystemTab })));
const OtherTab = lazy(() => import('./OtherTab').then((m) => ({ default: m.OtherTab })));

const TABS = ['personal', 'operation', 'system', 'other'] as const;
type Tab = (typeof TABS)[number];

/**
 * Settings tabs: personal for everyone; operation, system and other for admins (spec section 6).
 * The server lets only root read or change options, so an admin who is not root sees why
 * instead of forms that cannot load (the log clean-up, open to admins, stays usable).
 */
export function SettingsPage() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const admin = isAdmin(user);
  const root = isRoot(user);
  const [params, setParams] = useSearchParams();
  const tabs: readonly Tab[] = admin ? TABS : TABS.slice(0, 1);
  const requested = params.get('tab') as Tab | null;
  const tab: Tab = requested && tabs.includes(requested) ? requested : 'personal';
  const options = useOptions(root && tab !== 'personal');

  const withOptions = (render: (values: OptionValues) => ReactNode) => {
    if (!root) return <RootOnlyNotice />;
    if (options.isLoading) return <PageLoading page={t('pageNames.setting')} />;
    if (!options.data) return <EmptyPanel title={t('common.loadFailed')} />;
    return render(options.data);
  };

  const lazyTab = (content: ReactNode) => (
    <Suspense fallback={<PageLoading page={t('pageNames.setting')} />}>{content}</Suspense>
  );

  return (
    <>
      <PageHeader title={t('settings.title')} />
      <Tabs
        value={tab}
        onChange={(value) =>
          setParams(value && value !== 'personal' ? { tab: value } : {}, { replace: true })
        }
        keepMounted={false}
      >
        <ScrollArea type="never" mb="md">
          <Tabs.List style={{ flexWrap: 'nowrap' }}>
            {tabs.map((name) => (
              <Tabs.Tab key={name} value={name}>
                {t(`settings.tabs.${name}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </ScrollArea>
        <Tabs.Panel value="personal">
          <PersonalTab />
        </Tabs.Panel>
        {admin && (
          <>
            <Tabs.Panel value="operation">
              {lazyTab(
                root ? (
                  withOptions((values) => <OperationTab options={values} />)
                ) : (
                  <OperationTab options={null} />
                ),
              )}
            </Tabs.Panel>
            <Tabs.Panel value="system">
              {lazyTab(withOptions((values) => <SystemTab options={values} />))}
            </Tabs.Panel>
            <Tabs.Panel value="other">
              {lazyTab(withOptions((values) => <OtherTab options={values} />))}
            </Tabs.Panel>
          </>
        )}
      </Tabs>
    </>
  );
}
