/** The current Unix time in whole seconds, as the tables store it. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
