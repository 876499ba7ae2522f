import { useTranslation } from 'react-i18next';
import { useUpdateChannelField } from '../api/channel-actions';
import type { ChannelRow } from '../api/channels-list';
import { type OrderField, orderChange } from './channel-display';
import { InlineNumber } from './InlineNumber';

/** The row's priority or weight, saved with PUT /api/channel/ {id, field} when edited. */
export function ChannelOrderInput({ channel, field }: { channel: ChannelRow; field: OrderField }) {
  const { t } = useTranslation();
  const update = useUpdateChannelField();
  const commit = async (text: string) => {
    const change = orderChange(channel.id, field, text);
    if (!change) return null;
    try {
      const saved = await update.mutateAsync(change);
      return saved ? saved[field] : null;
    } catch {
      return null; // The client has already shown the server's message.
    }
  };
  return (
    <InlineNumber
      value={channel[field]}
      label={t(`channels.columns.${field}`)}
      hint={field === 'priority' ? t('channels.priorityHint') : t('channels.weightHint')}
      onCommit={commit}
    />
  );
}
