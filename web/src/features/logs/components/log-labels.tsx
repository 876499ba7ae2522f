import { Badge } from '@mantine/core';
import { LogType } from '@switchyard/contract/roles';
import { useTranslation } from 'react-i18next';

const TYPE_COLORS: Record<number, string> = {
  [LogType.topup]: 'green',
  [LogType.consume]: 'lime',
  [LogType.manage]: 'orange',
  [LogType.system]: 'grape',
  [LogType.test]: 'cyan',
};

const TYPE_NAMES: Record<number, string> = {
  [LogType.topup]: 'topup',
  [LogType.consume]: 'consume',
  [LogType.manage]: 'manage',
  [LogType.system]: 'system',
  [LogType.test]: 'test',
};

/** The label of a log type; 0 is "all" in the filter, anything unknown is "unknown". */
export const logTypeKey = (type: number): string => TYPE_NAMES[type] ?? (type === 0 ? 'all' : 'unknown');

export function LogTypeBadge({ type }: { type: number }) {
  const { t } = useTranslation();
  return (
    // max-content: in a tight table column the label would otherwise shrink to an ellipsis.
    <Badge variant="light" color={TYPE_COLORS[type] ?? 'gray'} style={{ minWidth: 'max-content' }}>
      {t(`logs.types.${logTypeKey(type)}`)}
    </Badge>
  );
}

/** Colour of a request's elapsed time, as for channel response times. */
export function elapsedColor(ms: number): string {
  if (ms < 1000) return 'green';
  if (ms < 3000) return 'lime';
  if (ms < 5000) return 'yellow';
  if (ms < 10000) return 'orange';
  return 'red';
}
