import { type Operation, operation as op } from './operation';

const paged = { query: ['p', 'order'] };
const search = { query: ['keyword'] };
const logFilter = ['p', 'type', 'start_timestamp', 'end_timestamp', 'model_name', 'token_name'];

/** The console API (/api), one entry per route the server registers. */
export const CONSOLE_OPERATIONS: Operation[] = [
  op('GET', '/api/status', 'System', 'public', 'System status and the console settings anyone may read'),
  op('GET', '/api/notice', 'System', 'public', 'The notice (Markdown)'),
  op('GET', '/api/about', 'System', 'public', 'The About page (Markdown or HTML)'),
  op('GET', '/api/home_page_content', 'System', 'public', 'The home page content'),
  op('GET', '/api/openapi.json', 'System', 'public', 'This document'),
  op('GET', '/api/models', 'System', 'user', 'Models by channel type'),
  op('GET', '/healthz', 'Operations', 'public', 'The process is alive'),
  op(
    'GET',
    '/readyz',
    'Operations',
    'public',
    'The database (and Redis) answer and migrations are done; 503 if not',
  ),
  op(
    'GET',
    '/metrics',
    'Operations',
    'public',
    'Prometheus metrics (only when METRICS_TOKEN is set; Bearer that token)',
  ),

  op('POST', '/api/user/register', 'Account', 'public', 'Register', { body: 'RegisterInput' }),
  op('POST', '/api/user/login', 'Account', 'public', 'Sign in (sets the session cookie)', {
    body: 'LoginInput',
  }),
  op('GET', '/api/user/logout', 'Account', 'public', 'Sign out'),
  op('GET', '/api/user/self', 'Account', 'user', 'The signed-in user'),
  op('PUT', '/api/user/self', 'Account', 'user', 'Change own name, password or email', {
    body: 'UpdateSelfInput',
  }),
  op('DELETE', '/api/user/self', 'Account', 'user', 'Delete own account'),
  op('POST', '/api/user/self/sessions/revoke', 'Account', 'user', 'End every session of the signed-in user'),
  op('GET', '/api/user/token', 'Account', 'user', 'Generate a new system access token'),
  op('GET', '/api/user/aff', 'Account', 'user', 'The invitation code'),
  op('GET', '/api/user/available_models', 'Account', 'user', 'Models the user may call'),
  op('GET', '/api/user/dashboard', 'Account', 'user', 'Daily usage for the dashboard', {
    query: ['start_timestamp', 'end_timestamp', 'username', 'scope'],
  }),
  op('POST', '/api/user/topup', 'Account', 'user', 'Redeem a code', { body: 'RedeemInput' }),
  op('GET', '/api/verification', 'Account', 'public', 'Mail an email verification code', {
    query: ['email'],
  }),
  op('GET', '/api/reset_password', 'Account', 'public', 'Mail a password reset link', { query: ['email'] }),
  op('POST', '/api/user/reset', 'Account', 'public', 'Reset the password from a mailed link', {
    body: 'PasswordResetInput',
  }),
  op('GET', '/api/oauth/state', 'Account', 'public', 'A state for an OAuth sign-in'),
  op('GET', '/api/oauth/github', 'Account', 'public', 'GitHub sign-in or binding callback', {
    query: ['code', 'state'],
  }),
  op('GET', '/api/oauth/lark', 'Account', 'public', 'Lark sign-in or binding callback', {
    query: ['code', 'state'],
  }),
  op('GET', '/api/oauth/wechat', 'Account', 'public', 'WeChat sign-in with a code', { query: ['code'] }),
  op('GET', '/api/oauth/wechat/bind', 'Account', 'user', 'Bind a WeChat account', { query: ['code'] }),
  op('GET', '/api/oauth/email/bind', 'Account', 'user', 'Bind an email address', {
    query: ['email', 'code'],
  }),

  op(
    'GET',
    '/api/user/',
    'Users',
    'admin',
    'List users (an admin: itself and the users below its role)',
    paged,
  ),
  op('GET', '/api/user/search', 'Users', 'admin', 'Search the users the caller may read', search),
  op('GET', '/api/user/:id', 'Users', 'admin', 'One user'),
  op('POST', '/api/user/', 'Users', 'admin', 'Create a user', { body: 'CreateUserInput' }),
  op('PUT', '/api/user/', 'Users', 'admin', 'Change a user', { body: 'UpdateUserInput' }),
  op('POST', '/api/user/manage', 'Users', 'admin', 'Promote, demote, disable, enable or delete a user', {
    body: 'ManageUserInput',
  }),
  op('DELETE', '/api/user/:id', 'Users', 'admin', 'Delete a user'),
  op('POST', '/api/topup', 'Users', 'admin', "Add to a user's quota", { body: 'AdminTopupInput' }),

  op('GET', '/api/token/', 'Keys', 'user', 'List own API keys', paged),
  op('GET', '/api/token/search', 'Keys', 'user', 'Search own API keys', search),
  op('GET', '/api/token/:id', 'Keys', 'user', 'One API key'),
  op('POST', '/api/token/', 'Keys', 'user', 'Create an API key', { body: 'CreateTokenInput' }),
  op('PUT', '/api/token/', 'Keys', 'user', 'Change an API key (only its status with ?status_only=1)', {
    body: ['UpdateTokenInput', 'TokenStatusInput'],
    query: ['status_only'],
  }),
  op('DELETE', '/api/token/:id', 'Keys', 'user', 'Delete an API key'),

  op('GET', '/api/redemption/', 'Redemption codes', 'admin', 'List codes', { query: ['p'] }),
  op('GET', '/api/redemption/search', 'Redemption codes', 'admin', 'Search codes', search),
  op('GET', '/api/redemption/:id', 'Redemption codes', 'admin', 'One code'),
  op('POST', '/api/redemption/', 'Redemption codes', 'admin', 'Create codes', {
    body: 'CreateRedemptionInput',
  }),
  op(
    'PUT',
    '/api/redemption/',
    'Redemption codes',
    'admin',
    'Change a code (only its status with ?status_only=1)',
    {
      body: ['UpdateRedemptionInput', 'RedemptionStatusInput'],
      query: ['status_only'],
    },
  ),
  op('DELETE', '/api/redemption/:id', 'Redemption codes', 'admin', 'Delete a code'),

  op('GET', '/api/channel/', 'Channels', 'admin', 'List channels', paged),
  op('GET', '/api/channel/search', 'Channels', 'admin', 'Search channels', search),
  op('GET', '/api/channel/models', 'Channels', 'admin', 'Every model name known'),
  op('GET', '/api/channel/test', 'Channels', 'admin', 'Test every channel in the background', {
    query: ['scope'],
  }),
  op('GET', '/api/channel/test/:id', 'Channels', 'admin', 'Test one channel', { query: ['model'] }),
  op('GET', '/api/channel/update_balance/:id', 'Channels', 'admin', "Refresh a channel's balance"),
  op('GET', '/api/channel/:id', 'Channels', 'admin', 'One channel'),
  op('POST', '/api/channel/', 'Channels', 'admin', 'Create channels (one per key line)', {
    body: 'CreateChannelInput',
  }),
  op('PUT', '/api/channel/', 'Channels', 'admin', 'Change a channel', { body: 'UpdateChannelInput' }),
  op('DELETE', '/api/channel/disabled', 'Channels', 'admin', 'Delete every disabled channel'),
  op('DELETE', '/api/channel/:id', 'Channels', 'admin', 'Delete a channel'),
  op('GET', '/api/group/', 'Channels', 'admin', 'The groups'),

  op(
    'GET',
    '/api/log/',
    'Logs',
    'admin',
    "Usage logs (an admin's: its own and those of users below its role)",
    {
      query: [...logFilter, 'username', 'channel'],
    },
  ),
  op('GET', '/api/log/stat', 'Logs', 'admin', 'Quota total of the logs the caller may read', {
    query: [...logFilter, 'username', 'channel'],
  }),
  op('GET', '/api/log/search', 'Logs', 'admin', 'Search the logs the caller may read', search),
  op('DELETE', '/api/log/', 'Logs', 'admin', 'Delete logs older than a time', {
    query: ['target_timestamp'],
  }),
  op('GET', '/api/log/self', 'Logs', 'user', 'Own usage logs', { query: logFilter }),
  op('GET', '/api/log/self/stat', 'Logs', 'user', 'Quota total of own logs', { query: logFilter }),
  op('GET', '/api/log/self/search', 'Logs', 'user', 'Search own logs', search),

  op(
    'GET',
    '/api/audit/',
    'Audit',
    'admin',
    'Audit log, newest first (an admin: its own entries and those of users below its role)',
    {
      query: ['p', 'actor', 'action', 'target', 'start_timestamp', 'end_timestamp'],
    },
  ),

  op('GET', '/api/option/', 'Options', 'root', 'Every option but the secrets'),
  op('PUT', '/api/option/', 'Options', 'root', 'Change an option', { body: 'OptionInput' }),
];
