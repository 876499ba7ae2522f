import { useTranslation } from 'react-i18next';
import { StatusPage } from '../components/StatusPage';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <StatusPage
      code={404}
      title={t('notFound.title')}
      message={t('notFound.message')}
      action={{ label: t('notFound.home'), to: '/' }}
    />
  );
}
