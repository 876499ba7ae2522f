import { Badge, createTheme, type MantineThemeOverride, PasswordInput } from '@mantine/core';

const base = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  fontFamily:
    '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif',
  components: {
    Badge: Badge.extend({ defaultProps: { tt: 'none' } }),
  },
});

/** The theme with Mantine's own words in the console's language (its password toggle says them in English). */
export const themeFor = (words: { togglePassword: string }): MantineThemeOverride => ({
  ...base,
  components: {
    ...base.components,
    PasswordInput: PasswordInput.extend({
      defaultProps: { visibilityToggleButtonProps: { 'aria-label': words.togglePassword } },
    }),
  },
});
