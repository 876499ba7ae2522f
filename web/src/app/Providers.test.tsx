import { PasswordInput } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n/i18n';
import { Providers } from './Providers';

describe('Providers', () => {
  it("labels Mantine's password toggle in the console's language", async () => {
    await i18n.changeLanguage('zh');
    render(
      <Providers>
        <PasswordInput label="password" />
      </Providers>,
    );
    expect(screen.getByRole('button', { name: '显示或隐藏密码' })).toBeTruthy();
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByRole('button', { name: 'Show or hide the password' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Toggle password visibility' })).toBeNull();
  });
});
