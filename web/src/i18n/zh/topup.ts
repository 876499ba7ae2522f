import type { enTopup } from '../en/topup';
import type { Messages } from '../messages';

/** 充值页：当前额度、充值链接与兑换码充值。 */
export const zhTopup: Messages<typeof enTopup> = {
  topup: {
    title: '充值',
    balanceTitle: '我的额度',
    balanceHint: '令牌调用会消耗此额度；可通过充值链接购买兑换码来增加额度。',
    currentQuota: '当前可用额度',
    getCode: '立即获取兑换码',
    noLink: '超级管理员未设置充值链接！',
    redeemTitle: '兑换码充值',
    redeemHint: '兑换成功后，兑换码中的额度会立即加到你的账户。',
    codePlaceholder: '请输入兑换码',
    redeem: '立即兑换',
    enterCode: '请输入兑换码！',
    invalidCode: '这不是有效的兑换码。',
    redeemed: '充值成功！',
    requestFailed: '请求失败',
  },
};
