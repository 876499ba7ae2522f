import { type Operation, operation as op } from './operation';

const paged = { query: ['p', 'order'] };
const search = { query: ['keyword'] };
const logFilter = ['p', 'type', 'start_timestamp', 'end_timestamp', 'model_name', 'token_name'];

/** The console API (/api), one entry per route the server registers. */
export const CONSOLE_OPERATIONS: Operation[] = [
  op('GET', '/api/status', 'System', 'public', [
    'System status and the console settings anyone may read',
    '系统状态及任何人可读的控制台设置',
  ]),
  op('GET', '/api/notice', 'System', 'public', ['The notice (Markdown)', '公告（Markdown）']),
  op('GET', '/api/about', 'System', 'public', [
    'The About page (Markdown or HTML)',
    '关于页面（Markdown 或 HTML）',
  ]),
  op('GET', '/api/home_page_content', 'System', 'public', ['The home page content', '首页内容']),
  op('GET', '/api/openapi.json', 'System', 'public', ['This document', '本文档']),
  op('GET', '/api/models', 'System', 'user', ['Models by channel type', '各渠道类型的模型']),
  op('GET', '/healthz', 'Operations', 'public', ['The process is alive', '进程存活']),
  op('GET', '/readyz', 'Operations', 'public', [
    'The database (and Redis) answer and migrations are done; 503 if not',
    '数据库（及 Redis）可用且迁移已完成；否则返回 503',
  ]),
  op('GET', '/metrics', 'Operations', 'public', [
    'Prometheus metrics (only when METRICS_TOKEN is set; Bearer that token)',
    'Prometheus 指标（仅在设置了 METRICS_TOKEN 时提供；以该令牌作 Bearer）',
  ]),

  op('POST', '/api/user/register', 'Account', 'public', ['Register', '注册'], { body: 'RegisterInput' }),
  op(
    'POST',
    '/api/user/login',
    'Account',
    'public',
    ['Sign in (sets the session cookie)', '登录（设置会话 Cookie）'],
    {
      body: 'LoginInput',
    },
  ),
  op(
    'POST',
    '/api/user/login/2fa',
    'Account',
    'public',
    [
      'Second sign-in step: a code from the authenticator app or a recovery code',
      '登录第二步：身份验证器应用的验证码或恢复码',
    ],
    { body: 'TwoFactorCodeInput' },
  ),
  op('POST', '/api/user/login/2fa/passkey/options', 'Account', 'public', [
    "Second sign-in step with a passkey: the challenge for the user's passkeys",
    '登录第二步使用通行密钥：为用户的通行密钥生成挑战',
  ]),
  op(
    'POST',
    '/api/user/login/2fa/passkey',
    'Account',
    'public',
    [
      "Second sign-in step with a passkey: the passkey's signed answer",
      '登录第二步使用通行密钥：通行密钥签名的应答',
    ],
    { body: 'PasskeySignInInput' },
  ),
  op('GET', '/api/user/logout', 'Account', 'public', ['Sign out', '注销']),
  op('GET', '/api/user/2fa/passkeys', 'Account', 'user', ['Own passkeys', '自己的通行密钥']),
  op('POST', '/api/user/2fa/passkeys/options', 'Account', 'user', [
    'Options to create a new passkey (WebAuthn)',
    '创建新通行密钥（WebAuthn）的选项',
  ]),
  op('POST', '/api/user/2fa/passkeys', 'Account', 'user', ['Register a new passkey', '注册新的通行密钥'], {
    body: 'PasskeyRegistrationInput',
  }),
  op('DELETE', '/api/user/2fa/passkeys/:id', 'Account', 'user', [
    'Remove an own passkey',
    '删除自己的通行密钥',
  ]),
  op('GET', '/api/user/2fa', 'Account', 'user', ['Two-factor sign-in status', '两步验证状态']),
  op('POST', '/api/user/2fa/setup', 'Account', 'user', [
    'Start two-factor enrolment: a new secret and its QR code, shown once',
    '开始设置两步验证：新的密钥及其二维码，仅显示一次',
  ]),
  op(
    'POST',
    '/api/user/2fa/enable',
    'Account',
    'user',
    [
      'Confirm enrolment with a code; answers the recovery codes once',
      '以验证码确认设置；仅此一次返回恢复码',
    ],
    { body: 'TwoFactorCodeInput' },
  ),
  op(
    'POST',
    '/api/user/2fa/recovery_codes',
    'Account',
    'user',
    ['New recovery codes for a code; the old ones stop working', '以验证码换取新的恢复码；旧恢复码失效'],
    { body: 'TwoFactorCodeInput' },
  ),
  op(
    'POST',
    '/api/user/2fa/disable',
    'Account',
    'user',
    ['Turn two-factor sign-in off with a code or recovery code', '以验证码或恢复码关闭两步验证'],
    { body: 'TwoFactorCodeInput' },
  ),
  op('GET', '/api/user/self', 'Account', 'user', ['The signed-in user', '当前登录的用户']),
  op(
    'PUT',
    '/api/user/self',
    'Account',
    'user',
    ['Change own name, password or email', '修改自己的名称、密码或邮箱'],
    {
      body: 'UpdateSelfInput',
    },
  ),
  op('DELETE', '/api/user/self', 'Account', 'user', ['Delete own account', '删除自己的账户']),
  op('POST', '/api/user/self/sessions/revoke', 'Account', 'user', [
    'End every session of the signed-in user',
    '结束当前用户的所有会话',
  ]),
  op('GET', '/api/user/token', 'Account', 'user', [
    'Generate a new system access token',
    '生成新的系统访问令牌',
  ]),
  op('GET', '/api/user/aff', 'Account', 'user', ['The invitation code', '邀请码']),
  op('GET', '/api/user/available_models', 'Account', 'user', [
    'Models the user may call',
    '用户可调用的模型',
  ]),
  op('GET', '/api/user/dashboard', 'Account', 'user', ['Daily usage for the dashboard', '仪表盘的每日用量'], {
    query: ['start_timestamp', 'end_timestamp', 'username', 'scope'],
  }),
  op('POST', '/api/user/topup', 'Account', 'user', ['Redeem a code', '兑换充值码'], { body: 'RedeemInput' }),
  op('GET', '/api/verification', 'Account', 'public', ['Mail an email verification code', '发送邮箱验证码'], {
    query: ['email'],
  }),
  op('GET', '/api/reset_password', 'Account', 'public', ['Mail a password reset link', '发送密码重置链接'], {
    query: ['email'],
  }),
  op(
    'POST',
    '/api/user/reset',
    'Account',
    'public',
    ['Reset the password from a mailed link', '通过邮件中的链接重置密码'],
    {
      body: 'PasswordResetInput',
    },
  ),
  op('GET', '/api/oauth/state', 'Account', 'public', [
    'A state for an OAuth sign-in',
    'OAuth 登录所用的 state',
  ]),
  op(
    'GET',
    '/api/oauth/github',
    'Account',
    'public',
    ['GitHub sign-in or binding callback', 'GitHub 登录或绑定回调'],
    {
      query: ['code', 'state'],
    },
  ),
  op(
    'GET',
    '/api/oauth/lark',
    'Account',
    'public',
    ['Lark sign-in or binding callback', '飞书登录或绑定回调'],
    {
      query: ['code', 'state'],
    },
  ),
  op('GET', '/api/oauth/oidc/start', 'Account', 'public', [
    "Start an OpenID Connect sign-in or binding: the provider's authorisation URL",
    '发起 OpenID Connect 登录或绑定：身份提供方的授权地址',
  ]),
  op(
    'GET',
    '/api/oauth/oidc',
    'Account',
    'public',
    ['OpenID Connect sign-in or binding callback', 'OpenID Connect 登录或绑定回调'],
    {
      query: ['code', 'state', 'error', 'error_description'],
    },
  ),
  op('GET', '/api/oauth/wechat', 'Account', 'public', ['WeChat sign-in with a code', '用验证码微信登录'], {
    query: ['code'],
  }),
  op('GET', '/api/oauth/wechat/bind', 'Account', 'user', ['Bind a WeChat account', '绑定微信账户'], {
    query: ['code'],
  }),
  op('GET', '/api/oauth/email/bind', 'Account', 'user', ['Bind an email address', '绑定邮箱地址'], {
    query: ['email', 'code'],
  }),

  op(
    'GET',
    '/api/user/',
    'Users',
    'admin',
    [
      'List users (an admin: itself and the users below its role)',
      '用户列表（管理员：自己及角色低于自己的用户）',
    ],
    paged,
  ),
  op(
    'GET',
    '/api/user/search',
    'Users',
    'admin',
    ['Search the users the caller may read', '搜索调用者可查看的用户'],
    search,
  ),
  op('GET', '/api/user/:id', 'Users', 'admin', ['One user', '单个用户']),
  op('POST', '/api/user/', 'Users', 'admin', ['Create a user', '创建用户'], { body: 'CreateUserInput' }),
  op('PUT', '/api/user/', 'Users', 'admin', ['Change a user', '修改用户'], { body: 'UpdateUserInput' }),
  op(
    'POST',
    '/api/user/manage',
    'Users',
    'admin',
    ['Promote, demote, disable, enable or delete a user', '提升、降级、禁用、启用或删除用户'],
    { body: 'ManageUserInput' },
  ),
  op('DELETE', '/api/user/:id', 'Users', 'admin', ['Delete a user', '删除用户']),
  op('GET', '/api/user/:id/2fa', 'Users', 'root', [
    "Whether a user's two-factor sign-in is on",
    '用户是否已开启两步验证',
  ]),
  op('DELETE', '/api/user/:id/2fa', 'Users', 'root', [
    "Turn off a user's two-factor sign-in (a lost device)",
    '关闭用户的两步验证（设备丢失时）',
  ]),
  op('POST', '/api/topup', 'Users', 'admin', ["Add to a user's quota", '为用户增加额度'], {
    body: 'AdminTopupInput',
  }),

  op('GET', '/api/token/', 'Keys', 'user', ['List own API keys', '自己的令牌列表'], paged),
  op('GET', '/api/token/search', 'Keys', 'user', ['Search own API keys', '搜索自己的令牌'], search),
  op('GET', '/api/token/:id', 'Keys', 'user', ['One API key', '单个令牌']),
  op('POST', '/api/token/', 'Keys', 'user', ['Create an API key', '创建令牌'], { body: 'CreateTokenInput' }),
  op(
    'PUT',
    '/api/token/',
    'Keys',
    'user',
    ['Change an API key (only its status with ?status_only=1)', '修改令牌（带 ?status_only=1 时只改状态）'],
    { body: ['UpdateTokenInput', 'TokenStatusInput'], query: ['status_only'] },
  ),
  op('DELETE', '/api/token/:id', 'Keys', 'user', ['Delete an API key', '删除令牌']),

  op('GET', '/api/redemption/', 'Redemption codes', 'admin', ['List codes', '兑换码列表'], { query: ['p'] }),
  op('GET', '/api/redemption/search', 'Redemption codes', 'admin', ['Search codes', '搜索兑换码'], search),
  op('GET', '/api/redemption/:id', 'Redemption codes', 'admin', ['One code', '单个兑换码']),
  op('POST', '/api/redemption/', 'Redemption codes', 'admin', ['Create codes', '创建兑换码'], {
    body: 'CreateRedemptionInput',
  }),
  op(
    'PUT',
    '/api/redemption/',
    'Redemption codes',
    'admin',
    ['Change a code (only its status with ?status_only=1)', '修改兑换码（带 ?status_only=1 时只改状态）'],
    { body: ['UpdateRedemptionInput', 'RedemptionStatusInput'], query: ['status_only'] },
  ),
  op('DELETE', '/api/redemption/:id', 'Redemption codes', 'admin', ['Delete a code', '删除兑换码']),

  op('GET', '/api/topup/offer', 'Online top-up', 'user', [
    'The payment methods, amounts and price on offer',
    '可用的支付方式、充值数量与价格',
  ]),
  op(
    'POST',
    '/api/topup/order',
    'Online top-up',
    'user',
    ['Start an order: answers where the browser pays', '创建订单：返回浏览器前往支付的地址'],
    { body: 'CreateOrderInput' },
  ),
  op('GET', '/api/topup/order/self', 'Online top-up', 'user', ['My orders', '我的订单'], { query: ['p'] }),
  op('GET', '/api/topup/order/self/:tradeNo', 'Online top-up', 'user', [
    'One of my orders (a pending Stripe order is first checked with Stripe)',
    '我的单个订单（待支付的 Stripe 订单会先向 Stripe 查询）',
  ]),
  op('GET', '/api/topup/order/', 'Online top-up', 'root', ['Every order', '所有订单'], {
    query: ['p', 'status'],
  }),
  op('POST', '/api/topup/order/:id/refund', 'Online top-up', 'root', [
    'Refund a paid order: its quota taken back, never below zero',
    '退款已支付的订单：收回其额度，不会低于零',
  ]),
  op('POST', '/api/topup/stripe/webhook', 'Online top-up', 'public', [
    'Stripe’s webhook (signed with the webhook signing secret)',
    'Stripe 的 Webhook（以 Webhook 签名密钥签名）',
  ]),
  op('GET', '/api/topup/epay/notify', 'Online top-up', 'public', [
    'EPay’s payment notification (MD5-signed); answered success',
    '易支付的异步通知（MD5 签名）；应答 success',
  ]),
  op('POST', '/api/topup/epay/notify', 'Online top-up', 'public', [
    'EPay’s payment notification as a form',
    '以表单发送的易支付异步通知',
  ]),

  op('GET', '/api/channel/', 'Channels', 'admin', ['List channels', '渠道列表'], paged),
  op('GET', '/api/channel/search', 'Channels', 'admin', ['Search channels', '搜索渠道'], search),
  op('GET', '/api/channel/models', 'Channels', 'admin', ['Every model name known', '所有已知的模型名称']),
  op(
    'GET',
    '/api/channel/test',
    'Channels',
    'admin',
    ['Test every channel in the background', '在后台测试所有渠道'],
    {
      query: ['scope'],
    },
  ),
  op('GET', '/api/channel/test/:id', 'Channels', 'admin', ['Test one channel', '测试单个渠道'], {
    query: ['model'],
  }),
  op('GET', '/api/channel/update_balance/:id', 'Channels', 'admin', [
    "Refresh a channel's balance",
    '更新渠道余额',
  ]),
  op('GET', '/api/channel/:id', 'Channels', 'admin', ['One channel', '单个渠道']),
  op(
    'POST',
    '/api/channel/',
    'Channels',
    'admin',
    ['Create channels (one per key line)', '创建渠道（每行密钥一个）'],
    {
      body: 'CreateChannelInput',
    },
  ),
  op('PUT', '/api/channel/', 'Channels', 'admin', ['Change a channel', '修改渠道'], {
    body: 'UpdateChannelInput',
  }),
  op('DELETE', '/api/channel/disabled', 'Channels', 'admin', [
    'Delete every disabled channel',
    '删除所有已禁用的渠道',
  ]),
  op('DELETE', '/api/channel/:id', 'Channels', 'admin', ['Delete a channel', '删除渠道']),
  op('GET', '/api/group/', 'Channels', 'admin', ['The groups', '分组列表']),

  op(
    'GET',
    '/api/log/',
    'Logs',
    'admin',
    [
      "Usage logs (an admin's: its own and those of users below its role)",
      '使用日志（管理员：自己及角色低于自己的用户的日志）',
    ],
    { query: [...logFilter, 'username', 'channel'] },
  ),
  op(
    'GET',
    '/api/log/stat',
    'Logs',
    'admin',
    ['Quota total of the logs the caller may read', '调用者可查看的日志的额度合计'],
    { query: [...logFilter, 'username', 'channel'] },
  ),
  op(
    'GET',
    '/api/log/search',
    'Logs',
    'admin',
    ['Search the logs the caller may read', '搜索调用者可查看的日志'],
    search,
  ),
  op('DELETE', '/api/log/', 'Logs', 'admin', ['Delete logs older than a time', '删除某一时间之前的日志'], {
    query: ['target_timestamp'],
  }),
  op('GET', '/api/log/self', 'Logs', 'user', ['Own usage logs', '自己的使用日志'], { query: logFilter }),
  op('GET', '/api/log/self/stat', 'Logs', 'user', ['Quota total of own logs', '自己日志的额度合计'], {
    query: logFilter,
  }),
  op('GET', '/api/log/self/search', 'Logs', 'user', ['Search own logs', '搜索自己的日志'], search),
  op('GET', '/api/video/', 'Videos', 'admin', ['Every video job, with its user', '所有视频任务及其用户'], {
    query: ['p'],
  }),
  op('GET', '/api/video/self', 'Videos', 'user', ['Own video jobs', '自己的视频任务'], { query: ['p'] }),
  op('GET', '/api/pricing', 'Pricing', 'user', [
    "Prices of the models the caller's group may use, in quota per 1M tokens, picture or second",
    '当前用户分组可用模型的价格（每百万令牌、每张图片或每秒视频的额度）',
  ]),
  op('GET', '/api/pricing/public', 'Pricing', 'public', [
    'Prices of the groups shown to visitors (only when PublicPricingEnabled is on)',
    '向访客公开的分组价格（仅在开启 PublicPricingEnabled 时可用）',
  ]),
  op('GET', '/api/playground/keys', 'Playground', 'user', [
    "The caller's enabled keys, masked",
    '当前用户已启用的令牌（已打码）',
  ]),
  op(
    'POST',
    '/api/playground/chat/completions',
    'Playground',
    'user',
    [
      'A streamed chat completion relayed with one of your keys (or the temporary one), billed and logged as an API call',
      '使用自己的令牌（或临时令牌）中转的流式对话补全，与 API 调用一样计费并记录日志',
    ],
    { body: 'PlaygroundChatInput' },
  ),

  op(
    'GET',
    '/api/audit/',
    'Audit',
    'admin',
    [
      'Audit log, newest first (an admin: its own entries and those of users below its role)',
      '审计日志，最新的在前（管理员：自己及角色低于自己的用户的记录）',
    ],
    { query: ['p', 'actor', 'action', 'target', 'start_timestamp', 'end_timestamp'] },
  ),

  op('GET', '/api/option/', 'Options', 'root', ['Every option but the secrets', '除密钥外的全部设置项']),
  op('PUT', '/api/option/', 'Options', 'root', ['Change an option', '修改设置项'], { body: 'OptionInput' }),
];
