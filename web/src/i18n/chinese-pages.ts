import type { englishPages } from './english-pages';
import type { Messages } from './messages';
import { zhAudit } from './zh/audit';
import { zhChannels } from './zh/channels';
import { zhLimits } from './zh/limits';
import { zhLogs } from './zh/logs';
import { zhPages } from './zh/pages';
import { zhPricing } from './zh/pricing';
import { zhRedemptions } from './zh/redemptions';
import { zhSettings } from './zh/settings';
import { zhTokens } from './zh/tokens';
import { zhTopup } from './zh/topup';
import { zhUsers } from './zh/users';
import { zhVideos } from './zh/videos';

/** The Chinese of every other page: loaded with the first of them. */
export const chinesePages: Messages<typeof englishPages> = {
  ...zhUsers,
  ...zhPages,
  ...zhTokens,
  ...zhLimits,
  ...zhRedemptions,
  ...zhTopup,
  ...zhChannels,
  ...zhLogs,
  ...zhSettings,
  ...zhAudit,
  ...zhVideos,
  ...zhPricing,
};
