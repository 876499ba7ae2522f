import { useTranslation } from 'react-i18next';
import { RecordFormPage } from '../../../components/RecordFormPage';
import { useRedemption } from '../api/redemption-edit';
import { RedemptionForm } from './RedemptionForm';

/** /redemption/add creates codes; /redemption/edit/{id} loads one code into the same form. */
export function RedemptionFormPage() {
  const { t } = useTranslation();
  return (
    <RecordFormPage
      titles={{ create: t('redemptions.form.createTitle'), edit: t('redemptions.form.editTitle') }}
      pageName={t('pageNames.redemption')}
      maw={860}
      useRecord={useRedemption}
      form={(code) => <RedemptionForm code={code} />}
    />
  );
}
