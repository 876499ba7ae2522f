import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';

dayjs.extend(customParseFormat);

/** The form a date-time field expects first; `renderTimestamp` shows times the same way. */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

const ACCEPTED_FORMATS = [
  DATE_TIME_FORMAT,
  'YYYY-MM-DD HH:mm',
  'YYYY-MM-DDTHH:mm:ss',
  'YYYY-MM-DDTHH:mm',
  'YYYY-MM-DD',
  'YYYY/MM/DD HH:mm:ss',
  'YYYY/MM/DD HH:mm',
  'YYYY/MM/DD',
];

/** A typed local date-time → seconds since the epoch; null when it is not a real date. */
export function parseDateTime(text: string): number | null {
  const parsed = dayjs(text.trim(), ACCEPTED_FORMATS, true);
  return parsed.isValid() ? parsed.unix() : null;
}
