import { enAuth } from './en/auth';
import { enChannels } from './en/channels';
import { enLogs } from './en/logs';
import { enPages } from './en/pages';
import { enRedemptions } from './en/redemptions';
import { enSettings } from './en/settings';
import { enShell } from './en/shell';
import { enTokens } from './en/tokens';
import { enTopup } from './en/topup';
import { enUsers } from './en/users';
import type { Messages } from './messages';
import { zhAuth } from './zh/auth';
import { zhChannels } from './zh/channels';
import { zhLogs } from './zh/logs';
import { zhPages } from './zh/pages';
import { zhRedemptions } from './zh/redemptions';
import { zhSettings } from './zh/settings';
import { zhShell } from './zh/shell';
import { zhTokens } from './zh/tokens';
import { zhTopup } from './zh/topup';
import { zhUsers } from './zh/users';

const en = {
  ...enShell,
  ...enAuth,
  ...enUsers,
  ...enPages,
  ...enTokens,
  ...enRedemptions,
  ...enTopup,
  ...enChannels,
  ...enLogs,
  ...enSettings,
};

export type EnglishMessages = typeof en;

const zh: Messages<EnglishMessages> = {
  ...zhShell,
  ...zhAuth,
  ...zhUsers,
  ...zhPages,
  ...zhTokens,
  ...zhRedemptions,
  ...zhTopup,
  ...zhChannels,
  ...zhLogs,
  ...zhSettings,
};

export const resources = {
  en: { translation: en },
  zh: { translation: zh },
};
