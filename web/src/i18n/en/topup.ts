/** The top-up page: current quota, top-up link and redeeming a code. */
export const enTopup = {
  topup: {
    title: 'Top up',
    balanceTitle: 'My quota',
    balanceHint: 'Spent by your tokens; buy a redemption code through the top-up link to add more.',
    currentQuota: 'Current available quota',
    getCode: 'Get a redemption code',
    noLink: 'The super administrator has not set a top-up link!',
    redeemTitle: 'Redeem a code',
    redeemHint: 'The quota of the code is added to your account at once.',
    codePlaceholder: 'Enter a redemption code',
    redeem: 'Redeem',
    enterCode: 'Please enter the top-up code!',
    invalidCode: 'This is not a valid redemption code.',
    redeemed: 'Top-up successful!',
    requestFailed: 'Request failed',
  },
};
