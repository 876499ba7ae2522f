import type { enPages } from '../en/pages';
import type { Messages } from '../messages';

export const zhPages: Messages<typeof enPages> = {
  home: {
    welcomeTitle: '欢迎使用 {{name}}',
    welcomeText:
      '{{name}} 是一个 LLM API 网关，可以把请求转发到各大模型厂商，并提供按用户的额度、API 令牌和使用日志。',
    signInPrompt: '如需使用，请先<login>登录</login>或<register>注册</register>。',
    statusTitle: '系统状况',
    infoTitle: '系统信息',
    name: '名称',
    version: '版本',
    source: '源码',
    sourceLink: 'GitHub 仓库',
    startTime: '启动时间',
    configTitle: '系统配置',
    emailVerification: '邮箱验证',
    githubOAuth: 'GitHub 身份验证',
    oidcLogin: 'OpenID Connect 身份验证',
    wechatLogin: '微信身份验证',
    turnstile: 'Turnstile 校验',
    loadFailed: '加载首页内容失败...',
  },
  about: {
    title: '关于',
    emptyTitle: '尚未设置关于页面',
    emptyText: '管理员可以在设置页面中设置关于内容，支持 Markdown、HTML 和链接。',
    repository: '项目地址：',
    apiReference: 'API 参考',
    apiReferenceText: '控制台与转发的全部接口及其请求结构（OpenAPI 3.1）：',
  },
  apiReference: {
    title: 'API 参考',
    download: 'OpenAPI 文档（JSON）',
    filter: '按路径或说明筛选',
    access: '调用权限',
    parameters: '参数',
    body: '请求体',
    failed: '无法加载 API 参考',
    failedText: '请刷新页面重试。',
  },
  chat: {
    title: '聊天',
    emptyTitle: '尚未配置聊天页面链接',
    emptyText: '管理员可以在运营设置中设置聊天页面链接。',
  },
  pending: {
    title: '即将推出',
    text: '此页面正在建设中，将在后续版本中提供。',
    formText: '此表单正在建设中，将在后续版本中提供。',
  },
};
