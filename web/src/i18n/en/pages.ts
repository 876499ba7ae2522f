/** Home, about, chat and the screens filled by later releases. */
export const enPages = {
  home: {
    welcomeTitle: 'Welcome to {{name}}',
    welcomeText:
      '{{name}} is an LLM API gateway: it relays requests to many model providers with per-user quotas, API tokens and usage logs.',
    signInPrompt: 'To get started, please <login>log in</login> or <register>sign up</register>.',
    statusTitle: 'System status',
    infoTitle: 'System information',
    name: 'Name',
    version: 'Version',
    source: 'Source code',
    sourceLink: 'GitHub repository',
    startTime: 'Started at',
    configTitle: 'System configuration',
    emailVerification: 'Email verification',
    githubOAuth: 'GitHub login',
    oidcLogin: 'OpenID Connect login',
    wechatLogin: 'WeChat login',
    turnstile: 'Turnstile check',
    loadFailed: 'Failed to load the home page content...',
  },
  about: {
    title: 'About',
    emptyTitle: 'No about page yet',
    emptyText:
      'The administrator can set the about content in Settings; Markdown, HTML and a link are supported.',
    repository: 'Project repository:',
    apiReference: 'API reference',
    apiReferenceText: 'Every console and relay route, with its request schema (OpenAPI 3.1):',
  },
  apiReference: {
    title: 'API reference',
    download: 'OpenAPI document (JSON)',
    filter: 'Filter by path or summary',
    access: 'Who may call',
    parameters: 'Parameters',
    body: 'Request body',
    failed: 'The API reference could not be loaded',
    failedText: 'Reload the page to try again.',
  },
  chat: {
    title: 'Chat',
    emptyTitle: 'No chat link configured',
    emptyText: 'An administrator can set the chat page link in the operation settings.',
  },
  pending: {
    title: 'Coming soon',
    text: 'This screen is being built and will be available in a coming release.',
    formText: 'This form is being built and will be available in a coming release.',
  },
};
