import { useTranslation } from 'react-i18next';
import { RecordFormPage } from '../../../components/RecordFormPage';
import { useChannel } from '../api/channel-edit';
import { ChannelForm } from './ChannelForm';

/** /channel/add creates channels; /channel/edit/{id} loads that channel into the same form. */
export function ChannelFormPage() {
  const { t } = useTranslation();
  return (
    <RecordFormPage
      titles={{ create: t('channels.createTitle'), edit: t('channels.editTitle') }}
      pageName={t('pageNames.channel')}
      maw={960}
      useRecord={useChannel}
      form={(channel) => <ChannelForm channel={channel} />}
    />
  );
}
