import { enAudit } from './en/audit';
import { enChannels } from './en/channels';
import { enLimits } from './en/limits';
import { enLogs } from './en/logs';
import { enPages } from './en/pages';
import { enPricing } from './en/pricing';
import { enRedemptions } from './en/redemptions';
import { enSettings } from './en/settings';
import { enTokens } from './en/tokens';
import { enTopup } from './en/topup';
import { enUsers } from './en/users';
import { enVideos } from './en/videos';

/** The English of every other page: loaded with the first of them. */
export const englishPages = {
  ...enUsers,
  ...enPages,
  ...enTokens,
  ...enLimits,
  ...enRedemptions,
  ...enTopup,
  ...enChannels,
  ...enLogs,
  ...enSettings,
  ...enAudit,
  ...enVideos,
  ...enPricing,
};
