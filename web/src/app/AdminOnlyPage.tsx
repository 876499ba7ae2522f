import { useTranslation } from 'react-i18next';
import { StatusPage } from '../components/StatusPage';

/** Shown to a signed-in user who opens an administrator's page. */
export function AdminOnlyPage() {
  const { t } = useTranslation();
  return (
    <StatusPage
      code={403}
      title={t('adminOnly.title')}
      message={t('adminOnly.message')}
      action={{ label: t('adminOnly.back'), to: '/token' }}
      testId="admin-only"
    />
  );
}
