export const Role = { guest: 0, common: 1, admin: 10, root: 100 } as const;

export const isAdminRole = (role: number): boolean => role >= Role.admin;
export const isRootRole = (role: number): boolean => role >= Role.root;

export const UserStatus = { enabled: 1, disabled: 2, deleted: 3 } as const;
export const TokenStatus = { enabled: 1, disabled: 2, expired: 3, exhausted: 4 } as const;
export const ChannelStatus = { enabled: 1, manuallyDisabled: 2, autoDisabled: 3 } as const;
export const RedemptionStatus = { unused: 1, disabled: 2, used: 3 } as const;
export const LogType = { unknown: 0, topup: 1, consume: 2, manage: 3, system: 4, test: 5 } as const;
