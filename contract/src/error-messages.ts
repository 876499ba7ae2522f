/**
 * Every refusal the server can answer, by stable code: its English and Chinese wording with named
 * `{param}` placeholders. Params are data (names, numbers, ids, a provider's own words), never English
 * words to translate: a message that differs by a word has a code of its own. Rendered by `renderError`.
 */
export const ERROR_MESSAGES = {
  // Request shape (the API boundary and Fastify's own errors)
  body_not_object: { en: 'The request body must be a JSON object', zh: '请求体必须是 JSON 对象' },
  body_not_json: { en: 'The request body is not valid JSON', zh: '请求体不是合法的 JSON' },
  body_too_large: {
    en: 'The request body is too large: at most {limit} MB is accepted here',
    zh: '请求体过大：此处最多接受 {limit} MB',
  },
  body_budget_full: {
    en: 'The server is receiving too much request data right now; please try again shortly',
    zh: '服务器当前正在接收的请求数据过多，请稍后重试',
  },
  body_timeout: {
    en: 'The request body stopped arriving: nothing came for {seconds} seconds',
    zh: '请求体中断：{seconds} 秒内没有收到任何数据',
  },
  json_too_deep: {
    en: 'The JSON body is nested too deeply: at most {limit} levels are accepted',
    zh: 'JSON 请求体嵌套过深：最多接受 {limit} 层',
  },
  json_too_many_values: {
    en: 'The JSON body holds too many values: at most {containers} objects and arrays, {members} object members and {values} values in all are accepted',
    zh: 'JSON 请求体包含的值过多：最多接受 {containers} 个对象和数组、{members} 个对象成员、共 {values} 个值',
  },
  unsupported_media_type: {
    en: 'Unsupported content type: send JSON with Content-Type: application/json',
    zh: '不支持的内容类型：请以 Content-Type: application/json 发送 JSON',
  },
  content_length_mismatch: {
    en: 'The Content-Length header does not match the body',
    zh: '请求头 Content-Length 与请求体不符',
  },
  bad_request: { en: 'Bad request', zh: '请求有误' },
  bad_request_because: { en: '{reason}', zh: '请求有误：{reason}' },
  api_route_not_found: { en: 'No such API route: {method} {path}', zh: '不存在的 API 路由：{method} {path}' },
  internal_error: {
    en: 'Internal server error; the administrator can find details in the server log',
    zh: '服务器内部错误，管理员可在服务器日志中查看详情',
  },
  database_unavailable: {
    en: 'The gateway cannot reach its database right now; please try again shortly',
    zh: '网关暂时无法连接数据库，请稍后重试',
  },
  codes_unavailable: {
    en: 'Verification codes and reset links cannot be issued or checked right now (the shared store does not answer); please try again shortly',
    zh: '暂时无法发放或核对验证码和重置链接（共享存储无响应），请稍后重试',
  },
  cross_site_call: {
    en: 'Refused: this call changes something and did not come from this site; use the console, or send an access token in the Authorization header',
    zh: '已拒绝：此调用会更改数据，但并非来自本站；请在控制台中操作，或在 Authorization 请求头中携带访问令牌',
  },
  too_many_requests: { en: 'Too many requests, please try again later', zh: '请求次数过多，请稍后再试' },
  invalid_id: { en: 'Invalid id: "{value}"', zh: '无效的 ID：“{value}”' },
  query_not_whole_number: { en: '{name} must be a whole number', zh: '{name} 必须是整数' },
  text_forbidden_character: {
    en: '{field} contains a control character or broken Unicode text',
    zh: '{field} 含有控制字符或无效的 Unicode 文本',
  },

  // A field of a contract schema (zod issue: `field` is its path, `min`/`max` its limits)
  field_required: { en: '{field} is required', zh: '请填写 {field}' },
  field_too_short: { en: '{field} must be at least {min} characters', zh: '{field} 至少需要 {min} 个字符' },
  field_too_long: { en: '{field} must be at most {max} characters', zh: '{field} 最多 {max} 个字符' },
  field_too_small: { en: '{field} must be at least {min}', zh: '{field} 不能小于 {min}' },
  field_too_big: { en: '{field} must be at most {max}', zh: '{field} 不能大于 {max}' },
  field_invalid: { en: '{field} is not valid', zh: '{field} 的值无效' },
  field_url: {
    en: '{field} must start with http:// or https:// followed by a host name',
    zh: '{field} 必须以 http:// 或 https:// 开头并带有主机名',
  },
  field_json: { en: '{field} is not valid JSON', zh: '{field} 不是合法的 JSON' },
  field_cidr: {
    en: '{field}: "{entry}" is not a valid CIDR block such as 192.168.1.0/24 or 2001:db8::/32',
    zh: '{field}：“{entry}”不是有效的网段，应形如 192.168.1.0/24 或 2001:db8::/32',
  },

  // Signing in and access
  not_logged_in: { en: 'Not logged in and no access token provided', zh: '未登录，且未提供访问令牌' },
  access_token_invalid: {
    en: 'No permission: the access token is invalid',
    zh: '无权进行此操作，访问令牌无效',
  },
  role_too_low: { en: 'No permission: your role is too low for this action', zh: '无权进行此操作，权限不足' },
  user_banned: { en: 'This user has been banned', zh: '该用户已被封禁' },
  pricing_not_public: {
    en: 'The price list is shown to signed-in users only',
    zh: '价格表仅对已登录用户开放',
  },
  login_failed: {
    en: 'Wrong username or password, or the user has been banned',
    zh: '用户名或密码错误，或用户已被封禁',
  },
  password_login_off: {
    en: 'The administrator has turned off login with a password',
    zh: '管理员已关闭密码登录',
  },
  two_factor_code_invalid: {
    en: 'The two-factor code is wrong, expired or already used',
    zh: '两步验证码错误、已过期或已被使用',
  },
  two_factor_not_pending: {
    en: 'The sign-in waiting for its two-factor code has expired; please sign in again',
    zh: '等待两步验证码的登录已过期，请重新登录',
  },
  two_factor_too_many_attempts: {
    en: 'Too many wrong two-factor codes; please wait {minutes} minutes and try again',
    zh: '两步验证码错误次数过多，请 {minutes} 分钟后再试',
  },
  two_factor_already_enabled: {
    en: 'Two-factor sign-in is already on for this account',
    zh: '该账户已开启两步验证',
  },
  two_factor_not_enabled: { en: 'Two-factor sign-in is not on for this account', zh: '该账户未开启两步验证' },
  two_factor_setup_missing: {
    en: 'Start the two-factor setup first: no secret is waiting for confirmation',
    zh: '请先开始设置两步验证：没有等待确认的密钥',
  },
  two_factor_needs_session_secret: {
    en: 'Two-factor sign-in needs SESSION_SECRET set on the server: its secrets are encrypted with it',
    zh: '两步验证需要服务器设置 SESSION_SECRET：其密钥以它加密',
  },
  passkey_invalid: {
    en: 'The passkey was not accepted; please try again',
    zh: '通行密钥未被接受，请重试',
  },
  passkey_challenge_missing: {
    en: 'No passkey request is waiting; please start again',
    zh: '没有等待中的通行密钥请求，请重新开始',
  },
  passkey_limit: { en: 'At most {max} passkeys per account', zh: '每个账户最多 {max} 个通行密钥' },
  passkey_not_found: { en: 'Passkey does not exist', zh: '通行密钥不存在' },
  two_factor_enrolment_required: {
    en: 'The administrator requires two-factor sign-in for administrators: turn it on in your personal settings first',
    zh: '管理员要求管理员账户开启两步验证：请先在个人设置中开启',
  },
  registration_closed: { en: 'The administrator has closed new registrations', zh: '管理员已关闭新用户注册' },
  password_registration_off: {
    en: 'The administrator has turned off registration with a password; please sign up with a third-party account',
    zh: '管理员已关闭密码注册，请使用第三方账户注册',
  },
  email_verification_required: {
    en: 'Email verification is on: enter your email address and the verification code',
    zh: '已开启邮箱验证，请输入邮箱地址和验证码',
  },
  verification_code_invalid: {
    en: 'The verification code is wrong or has expired',
    zh: '验证码错误或已过期',
  },
  verification_code_missing: { en: 'The verification code is missing', zh: '缺少验证码' },
  reset_link_invalid: { en: 'The reset link is invalid or has expired', zh: '重置链接无效或已过期' },
  email_not_registered: { en: 'This email address is not registered', zh: '该邮箱地址尚未注册' },
  email_taken: { en: 'This email address is already taken', zh: '该邮箱地址已被占用' },
  email_domain_not_allowed: {
    en: 'The administrator only allows email addresses of certain domains, and this address is not one of them',
    zh: '管理员仅允许特定域名的邮箱地址，该地址不在其中',
  },
  username_taken: { en: 'This username is already taken', zh: '该用户名已被占用' },
  aff_code_exhausted: {
    en: 'Could not generate an invitation code; please retry',
    zh: '无法生成邀请码，请重试',
  },
  turnstile_empty: {
    en: 'Turnstile token is empty: complete the bot check first',
    zh: 'Turnstile 校验参数为空，请先完成人机校验',
  },
  turnstile_failed: {
    en: 'The Turnstile bot check failed; refresh the page and try again',
    zh: 'Turnstile 人机校验失败，请刷新页面后重试',
  },

  // Third-party sign-in (`provider` is a product name: GitHub, Lark, WeChat)
  oauth_code_missing: { en: 'The code is missing', zh: '缺少授权码' },
  oauth_state_mismatch: {
    en: 'The state is empty or does not match; please start signing in again',
    zh: 'state 为空或不匹配，请重新发起登录',
  },
  oauth_account_bound: {
    en: 'This {provider} account is already bound to another user',
    zh: '该 {provider} 账户已绑定其他用户',
  },
  oauth_code_refused: {
    en: '{provider} did not accept the sign-in code; please sign in again',
    zh: '{provider} 未接受登录授权码，请重新登录',
  },
  oauth_code_refused_because: {
    en: '{provider} did not accept the sign-in code: {reason}; please sign in again',
    zh: '{provider} 未接受登录授权码：{reason}，请重新登录',
  },
  oauth_no_account: {
    en: '{provider} did not say which account signed in; please try again',
    zh: '{provider} 未返回登录的账户，请重试',
  },
  github_login_disabled: {
    en: 'The administrator has not enabled sign-in with GitHub',
    zh: '管理员未开启通过 GitHub 登录',
  },
  lark_login_not_set_up: {
    en: 'The administrator has not set up sign-in with Lark',
    zh: '管理员未配置飞书登录',
  },
  oidc_login_disabled: {
    en: 'The administrator has not enabled sign-in with OpenID Connect',
    zh: '管理员未开启 OpenID Connect 登录',
  },
  oidc_discovery_unreadable: {
    en: "The identity provider's discovery document at {url} could not be read (HTTP {status})",
    zh: '无法读取身份提供方的发现文档 {url}（HTTP {status}）',
  },
  oidc_discovery_issuer_mismatch: {
    en: "The identity provider's discovery document names the issuer {found}, not {expected}",
    zh: '身份提供方的发现文档中的 issuer 为 {found}，而不是 {expected}',
  },
  oidc_no_signing_algorithm: {
    en: 'The identity provider signs ID tokens only with {algorithms}, which this server does not accept',
    zh: '身份提供方只用 {algorithms} 签名 ID Token，本服务器不接受这些算法',
  },
  oidc_id_token_invalid: {
    en: 'The identity provider\'s ID token failed the "{check}" check; please sign in again',
    zh: '身份提供方的 ID Token 未通过“{check}”校验，请重新登录',
  },
  oidc_sign_in_refused: {
    en: 'The identity provider refused the sign-in: {reason}',
    zh: '身份提供方拒绝了登录：{reason}',
  },
  wechat_login_disabled: {
    en: 'The administrator has not enabled sign-in with WeChat',
    zh: '管理员未开启通过微信登录',
  },
  wechat_address_missing: {
    en: 'The administrator has not configured the WeChat server address',
    zh: '管理员未配置微信服务器地址',
  },
  wechat_bad_answer: {
    en: 'The WeChat server gave an answer that could not be read',
    zh: '微信服务器返回了无法解析的内容',
  },
  wechat_refused: { en: 'The WeChat server refused the verification code', zh: '微信服务器拒绝了该验证码' },
  wechat_refused_because: { en: '{reason}', zh: '微信服务器拒绝了该验证码：{reason}' },

  // Outside services the server calls (`seconds` is the time it waited)
  github_timeout: {
    en: 'GitHub did not answer within {seconds} seconds; please try again later',
    zh: 'GitHub 在 {seconds} 秒内没有响应，请稍后再试',
  },
  github_unreachable: {
    en: 'Could not reach GitHub; please try again later',
    zh: '无法连接 GitHub，请稍后再试',
  },
  lark_timeout: {
    en: 'Lark did not answer within {seconds} seconds; please try again later',
    zh: '飞书在 {seconds} 秒内没有响应，请稍后再试',
  },
  lark_unreachable: { en: 'Could not reach Lark; please try again later', zh: '无法连接飞书，请稍后再试' },
  oidc_timeout: {
    en: 'The identity provider did not answer within {seconds} seconds; please try again later',
    zh: '身份提供方在 {seconds} 秒内没有响应，请稍后再试',
  },
  oidc_unreachable: {
    en: 'Could not reach the identity provider; please try again later',
    zh: '无法连接身份提供方，请稍后再试',
  },
  wechat_timeout: {
    en: 'the WeChat server did not answer within {seconds} seconds; please try again later',
    zh: '微信服务器在 {seconds} 秒内没有响应，请稍后再试',
  },
  wechat_unreachable: {
    en: 'Could not reach the WeChat server; please try again later',
    zh: '无法连接微信服务器，请稍后再试',
  },
  pusher_timeout: {
    en: 'the message pusher did not answer within {seconds} seconds; please try again later',
    zh: '消息推送服务在 {seconds} 秒内没有响应，请稍后再试',
  },
  pusher_unreachable: {
    en: 'Could not reach the message pusher; please try again later',
    zh: '无法连接消息推送服务，请稍后再试',
  },
  turnstile_timeout: {
    en: 'the Turnstile bot check did not answer within {seconds} seconds; please try again later',
    zh: 'Turnstile 人机校验在 {seconds} 秒内没有响应，请稍后再试',
  },
  turnstile_unreachable: {
    en: 'Could not reach the Turnstile bot check; please try again later',
    zh: '无法连接 Turnstile 人机校验服务，请稍后再试',
  },
  balance_timeout: {
    en: 'the balance endpoint did not answer within {seconds} seconds; please try again later',
    zh: '余额接口在 {seconds} 秒内没有响应，请稍后再试',
  },
  balance_unreachable: {
    en: 'Could not reach the balance endpoint; please try again later',
    zh: '无法连接余额接口，请稍后再试',
  },

  // Users
  user_not_found: { en: 'User does not exist', zh: '用户不存在' },
  user_create_forbidden: {
    en: 'You cannot create a user with a role equal to or higher than your own',
    zh: '不能创建角色等于或高于自己的用户',
  },
  user_read_forbidden: {
    en: 'No permission to read a user of equal or higher role',
    zh: '无权查看同级或更高角色的用户',
  },
  user_update_forbidden: {
    en: 'No permission to update a user of equal or higher role',
    zh: '无权修改同级或更高角色的用户',
  },
  user_manage_forbidden: {
    en: 'No permission to manage a user of equal or higher role',
    zh: '无权管理同级或更高角色的用户',
  },
  user_topup_forbidden: {
    en: 'No permission to top up a user of equal or higher role, yourself included',
    zh: '无权为同级或更高角色的用户（包括自己）充值',
  },
  user_delete_forbidden: {
    en: 'No permission to delete a user of equal or higher role',
    zh: '无权删除同级或更高角色的用户',
  },
  user_role_by_actions: {
    en: 'Change a role or status with the promote, demote, enable and disable actions',
    zh: '请通过提升、降级、启用和禁用操作修改角色或状态',
  },
  user_group_unknown: {
    en: 'Group "{group}" does not exist; add it to the group ratios first',
    zh: '分组“{group}”不存在，请先在分组倍率中添加',
  },
  root_account_undeletable: {
    en: 'The super administrator account cannot be deleted',
    zh: '超级管理员账户不能注销',
  },
  root_undeletable: { en: 'The super administrator cannot be deleted', zh: '不能删除超级管理员' },
  root_undisableable: { en: 'The super administrator cannot be disabled', zh: '不能禁用超级管理员' },
  root_undemotable: { en: 'The super administrator cannot be demoted', zh: '不能降级超级管理员' },
  promote_root_only: {
    en: 'Only the super administrator can promote users',
    zh: '只有超级管理员可以提升用户',
  },
  user_already_admin: { en: 'This user is already an administrator', zh: '该用户已经是管理员' },
  user_already_common: { en: 'This user is already a normal user', zh: '该用户已经是普通用户' },
  topup_amount_not_positive: { en: 'The top-up amount must be greater than 0', zh: '充值额度必须大于 0' },

  // Tokens
  token_not_found: { en: 'Token does not exist', zh: '令牌不存在' },
  token_expired_cannot_enable: {
    en: 'This token has expired and cannot be enabled; change its expiry time or set it to never expire first',
    zh: '令牌已过期，无法启用，请先修改过期时间或设为永不过期',
  },
  token_exhausted_cannot_enable: {
    en: 'This token has used up its quota and cannot be enabled; raise its remaining quota or make it unlimited first',
    zh: '令牌额度已用尽，无法启用，请先增加剩余额度或设为无限额度',
  },
  token_expiry_in_past: {
    en: 'The expiry time must be in the future, or -1 for never',
    zh: '过期时间必须晚于当前时间，或设为 -1 表示永不过期',
  },
  // A key's own limit above its user's (rpm_limit, tpm_limit, concurrency_limit in `field`).
  token_rpm_limit_above_user: {
    en: 'Your account allows at most {max} requests per minute; leave it empty to use that, or enter a lower limit',
    zh: '您的账户每分钟最多 {max} 次请求；留空即使用该值，或填写更低的限制',
  },
  token_tpm_limit_above_user: {
    en: 'Your account allows at most {max} tokens per minute; leave it empty to use that, or enter a lower limit',
    zh: '您的账户每分钟最多 {max} 个 Token；留空即使用该值，或填写更低的限制',
  },
  token_concurrency_limit_above_user: {
    en: 'Your account allows at most {max} concurrent requests; leave it empty to use that, or enter a lower limit',
    zh: '您的账户最多 {max} 个并发请求；留空即使用该值，或填写更低的限制',
  },
  token_model_unknown: {
    en: 'Unknown model "{model}"; choose from the models you can use',
    zh: '未知模型“{model}”，请从可用模型中选择',
  },

  // Redemption codes
  redemption_not_found: { en: 'Redemption code does not exist', zh: '兑换码不存在' },
  redemption_used_unchangeable: {
    en: 'This code has been used and can no longer be changed',
    zh: '该兑换码已被使用，无法再修改',
  },
  redemption_used_no_toggle: {
    en: 'A used code cannot be enabled or disabled',
    zh: '已使用的兑换码不能启用或禁用',
  },
  redemption_invalid: { en: 'Redemption failed: this code is not valid', zh: '兑换失败：兑换码无效' },
  redemption_disabled: {
    en: 'Redemption failed: this code has been disabled',
    zh: '兑换失败：该兑换码已被禁用',
  },
  redemption_used: {
    en: 'Redemption failed: this code has already been used',
    zh: '兑换失败：该兑换码已被使用',
  },

  // Channels
  channel_not_found: { en: 'Channel does not exist', zh: '渠道不存在' },
  channel_group_unknown: {
    en: 'Group "{group}" does not exist; add it to the group ratios in system settings first',
    zh: '分组“{group}”不存在，请先在系统设置的分组倍率中添加',
  },
  channel_destination_needs_key: {
    en: 'Only root can change where a channel sends its credentials ({field}) while keeping them; enter new credentials along with the change (the key, or every secret setting of this type)',
    zh: '只有超级管理员可以在保留原凭据的情况下更改渠道凭据的发送去向（{field}）；如需更改，请同时填写新的凭据（密钥，或该类型的全部密钥类配置项）',
  },
  channel_config_required: {
    en: 'This channel type needs its setting "{field}"; fill it in',
    zh: '该类型的渠道需要填写配置项“{field}”',
  },
  channel_config_region_invalid: {
    en: 'The setting "{field}" must be a region name such as us-west-2: lower-case letters, digits and hyphens',
    zh: '配置项“{field}”必须是区域名称（如 us-west-2）：只能包含小写字母、数字和连字符',
  },
  channel_config_adc_invalid: {
    en: 'The service account key must be the JSON key file Google Cloud downloads (with client_email and private_key)',
    zh: '服务账号密钥必须是 Google Cloud 下载的 JSON 密钥文件（含 client_email 与 private_key）',
  },
  channel_test_running: {
    en: 'A channel test is already running; wait until it finishes',
    zh: '已有渠道测试正在运行，请等待其完成',
  },
  // A channel test that failed (the server's own words; `reason` and `detail` are the network's or the provider's)
  channel_test_no_chat_model: {
    en: 'This channel has no chat model to test with: channel tests send a chat request, so they use chat models only (not embedding, moderation, speech, transcription or image models)',
    zh: '该渠道没有可用于测试的对话模型：渠道测试发送的是对话请求，只使用对话模型（不含嵌入、审核、语音、转写或图像模型）',
  },
  channel_test_unreachable: {
    en: 'Could not reach the upstream: {reason}',
    zh: '无法连接上游：{reason}',
  },
  channel_test_broken: {
    en: 'The upstream answer broke off: {reason}',
    zh: '上游的回答中途断开：{reason}',
  },
  channel_test_upstream_error: { en: '{detail}', zh: '上游返回错误：{detail}' },
  channel_test_not_json: {
    en: 'The channel did not answer a chat completion: its answer is not JSON',
    zh: '渠道的回答不是对话补全：回答不是 JSON',
  },
  channel_test_no_message: {
    en: 'The channel did not answer a chat completion: its answer has no choices with a message',
    zh: '渠道的回答不是对话补全：回答中没有带消息的 choices',
  },
  channel_test_content_not_text: {
    en: 'The channel did not answer a chat completion: its message content is not text',
    zh: '渠道的回答不是对话补全：消息内容不是文本',
  },
  channel_test_wrong_model: {
    en: 'The channel answered with model {model}, not {asked}',
    zh: '渠道以模型 {model} 作答，而不是 {asked}',
  },
  balance_status: {
    en: 'The balance endpoint answered status code {status}',
    zh: '余额接口返回了状态码 {status}',
  },
  balance_not_json: { en: 'The balance endpoint did not answer JSON', zh: '余额接口没有返回 JSON' },
  balance_unsupported: {
    en: 'Reading the balance is not supported for {type} channels',
    zh: '不支持查询 {type} 渠道的余额',
  },
  balance_unsupported_type: {
    en: 'Reading the balance is not supported for this channels',
    zh: '不支持查询该类型渠道的余额',
  },
  balance_provider_refused: { en: 'The provider refused: {reason}', zh: '供应商拒绝了请求：{reason}' },
  balance_provider_refused_unexplained: {
    en: 'The provider refused: unknown error',
    zh: '供应商拒绝了请求：未知错误',
  },
  balance_currency_missing: {
    en: 'The balance endpoint lists no {currency} balance',
    zh: '余额接口没有返回 {currency} 余额',
  },
  balance_missing: { en: 'The balance endpoint answered no balance', zh: '余额接口没有返回余额' },
  balance_missing_because: {
    en: 'The balance endpoint answered no balance: {reason}',
    zh: '余额接口没有返回余额：{reason}',
  },

  // Logs and the dashboard
  logs_before_missing: {
    en: 'Choose the date before which logs are deleted',
    zh: '请选择要删除哪一天之前的日志',
  },
  range_reversed: { en: 'The start of the range must be before its end', zh: '起始时间必须早于结束时间' },
  range_too_long: { en: 'Choose a range of at most {days} days', zh: '时间范围最多 {days} 天' },

  // System settings (`key` is the option's name)
  option_unknown: { en: 'Unknown option "{key}"', zh: '未知的配置项“{key}”' },
  option_not_boolean: { en: '{key} must be true or false', zh: '{key} 必须为 true 或 false' },
  option_not_integer: { en: '{key} must be a whole number of 0 or more', zh: '{key} 必须是不小于 0 的整数' },
  option_not_number: { en: '{key} must be a number of 0 or more', zh: '{key} 必须是不小于 0 的数' },
  option_not_json: { en: '{key} is not a valid JSON string', zh: '{key} 不是合法的 JSON 字符串' },
  option_not_ratio_object: {
    en: '{key} is not a valid JSON string: expected an object of name → number',
    zh: '{key} 不是合法的 JSON 字符串：应为“名称 → 数值”的对象',
  },
  option_bad_ratio: {
    en: '{key}: the ratio of "{name}" must be a number of 0 or more',
    zh: '{key}：“{name}”的倍率必须是不小于 0 的数',
  },
  option_bad_theme: { en: 'Theme must be one of {themes}', zh: '主题必须是以下之一：{themes}' },
  option_bad_currency: {
    en: '{key} must be the three-letter code of a currency with two decimals, such as USD or CNY',
    zh: '{key} 必须是带两位小数的货币的三字母代码，如 USD 或 CNY',
  },
  option_bad_price: {
    en: '{key} must be a positive price with at most two decimals, such as 7.30',
    zh: '{key} 必须是最多两位小数的正数价格，如 7.30',
  },
  option_bad_amounts: {
    en: '{key} must list up to 12 positive whole amounts separated by commas, such as 10,20,50',
    zh: '{key} 必须是以逗号分隔的最多 12 个正整数金额，如 10,20,50',
  },
  stripe_needs_keys: {
    en: 'Fill in the Stripe secret key and webhook signing secret before enabling Stripe',
    zh: '请先填写 Stripe 密钥和 Webhook 签名密钥，再开启 Stripe',
  },
  epay_needs_settings: {
    en: 'Fill in the EPay address, merchant ID and key before enabling EPay',
    zh: '请先填写易支付地址、商户 ID 和密钥，再开启易支付',
  },
  topup_method_disabled: {
    en: 'This payment method is not enabled',
    zh: '该支付方式未开启',
  },
  topup_amount_below_min: {
    en: 'The smallest top-up is {min}',
    zh: '最低充值数量为 {min}',
  },
  topup_money_too_large: {
    en: 'This top-up is too large for one payment',
    zh: '充值金额过大，无法一次支付',
  },
  topup_order_not_found: { en: 'No such order', zh: '订单不存在' },
  topup_order_not_paid: {
    en: 'Only a paid order can be refunded',
    zh: '只能退款已支付的订单',
  },
  payment_gateway_failed: {
    en: 'The payment gateway could not be reached; please try again later',
    zh: '无法连接支付网关，请稍后重试',
  },
  github_login_needs_client: {
    en: 'Fill in the GitHub client ID and secret before enabling GitHub login',
    zh: '请先填写 GitHub Client ID 和 Client Secret，再开启 GitHub 登录',
  },
  oidc_login_needs_issuer: {
    en: 'Fill in the OpenID Connect issuer and client ID before enabling OpenID Connect login',
    zh: '请先填写 OpenID Connect 的 Issuer 和 Client ID，再开启 OpenID Connect 登录',
  },
  option_bad_issuer: {
    en: 'The issuer must be an http:// or https:// URL without query or fragment',
    zh: 'Issuer 必须是不带查询参数和片段的 http:// 或 https:// 地址',
  },
  email_whitelist_needed: {
    en: 'Fill in the email domain whitelist before enabling it',
    zh: '请先填写邮箱域名白名单，再开启此项',
  },
  wechat_login_needs_address: {
    en: 'Fill in the WeChat server address before enabling WeChat login',
    zh: '请先填写微信服务器地址，再开启微信登录',
  },
  turnstile_needs_site_key: {
    en: 'Fill in the Turnstile site key before enabling the bot check',
    zh: '请先填写 Turnstile Site Key，再开启人机校验',
  },

  // Mail and notifications
  mail_not_configured: {
    en: 'Email is not set up: the administrator has to set the SMTP server and the sender address first',
    zh: '尚未配置邮件：管理员需要先设置 SMTP 服务器和发件人地址',
  },
  mail_failed: { en: 'Failed to send email: {reason}', zh: '邮件发送失败：{reason}' },
  notify_no_target: {
    en: 'Neither a message pusher nor an email address of the super administrator is set',
    zh: '既未设置消息推送服务，也未设置超级管理员的邮箱地址',
  },
  pusher_refused: { en: 'The message pusher refused the notification', zh: '消息推送服务拒绝了该通知' },
  pusher_refused_because: {
    en: 'The message pusher refused the notification: {reason}',
    zh: '消息推送服务拒绝了该通知：{reason}',
  },
} as const satisfies Record<string, { en: string; zh: string }>;
