import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Admins see the tab, but only root may read and change system options (GET/PUT /api/option/). */
export function RootOnlyNotice({ partial = false }: { partial?: boolean }) {
  const { t } = useTranslation();
  return (
    <Alert color="yellow" title={t('settings.rootOnly.title')} data-testid="root-only">
      {partial ? t('settings.rootOnly.partial') : t('settings.rootOnly.text')}
    </Alert>
  );
}
