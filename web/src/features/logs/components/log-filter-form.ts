import { wholeNumberText } from '@switchyard/contract/envelope';
import dayjs from 'dayjs';
import { parseDateTime } from '../../../lib/date-input';
import type { LogQuery } from '../api/logs-list';

/** The log filter fields as typed; times in the form of a datetime-local input. */
export interface LogFilterForm {
  type: number;
  tokenName: string;
  modelName: string;
  start: string;
  end: string;
  channel: string;
  username: string;
}

/** Log types of the filter (spec section 4; 5 is a channel test). 0 means all. */
export const LOG_FILTER_TYPES = [0, 1, 2, 3, 4, 5] as const;

const INPUT_FORMAT = 'YYYY-MM-DDTHH:mm:ss';

/** Seconds → the value a datetime-local input with seconds shows. */
export const toDateTimeInput = (seconds: number): string => dayjs.unix(seconds).format(INPUT_FORMAT);

/** The default range: from the epoch to one hour from now. */
export function defaultLogFilter(nowSeconds = Math.floor(Date.now() / 1000)): LogFilterForm {
  return {
    type: 0,
    tokenName: '',
    modelName: '',
    start: toDateTimeInput(0),
    end: toDateTimeInput(nowSeconds + 3600),
    channel: '',
    username: '',
  };
}

export type LogFilterError = 'start' | 'end' | 'channel';

/** The query for the filters, or the first field that cannot be sent; admins add channel and username. */
export function toLogQuery(
  form: LogFilterForm,
  admin: boolean,
): { query: LogQuery } | { error: LogFilterError } {
  const start = form.start.trim() ? parseDateTime(form.start) : 0;
  if (start === null) return { error: 'start' };
  const end = form.end.trim() ? parseDateTime(form.end) : 0;
  if (end === null) return { error: 'end' };
  const channelText = form.channel.trim();
  const channel = channelText === '' ? 0 : wholeNumberText(channelText);
  if (admin && channel === undefined) return { error: 'channel' };
  const query: LogQuery = {
    type: form.type,
    token_name: form.tokenName.trim(),
    model_name: form.modelName.trim(),
    start_timestamp: Math.max(0, start),
    end_timestamp: Math.max(0, end),
  };
  if (admin) {
    query.username = form.username.trim();
    query.channel = channel;
  }
  return { query };
}
