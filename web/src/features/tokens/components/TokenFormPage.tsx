import { useTranslation } from 'react-i18next';
import { RecordFormPage } from '../../../components/RecordFormPage';
import { useToken } from '../api/token-edit';
import { TokenForm } from './TokenForm';

/** /token/add creates a token; /token/edit/{id} loads that token into the same form. */
export function TokenFormPage() {
  const { t } = useTranslation();
  return (
    <RecordFormPage
      titles={{ create: t('tokens.form.createTitle'), edit: t('tokens.form.editTitle') }}
      pageName={t('pageNames.token')}
      maw={860}
      useRecord={useToken}
      form={(token) => <TokenForm token={token} />}
    />
  );
}
