import { notifications, notificationsStore } from '@mantine/notifications';
import { OPTION_KEYS } from '@switchyard/contract/options';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chinesePages } from '../../../i18n/chinese-pages';
import { englishPages } from '../../../i18n/english-pages';
import { i18n } from '../../../i18n/i18n';
import { jsonResponse, renderAt } from '../../../test/render';
import { OptionSection } from './OptionSection';

const messages = () => notificationsStore.getState().notifications.map((n) => String(n.message));
const options = { SystemName: 'Gate', Logo: '', RetryTimes: '0', ModelRatio: '{"gpt-4":15}' };

function server() {
  const puts: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === 'PUT') puts.push(JSON.parse(String(init.body)));
      if (url === '/api/status')
        return jsonResponse({ success: true, message: '', data: { system_name: 'Gate' } });
      return jsonResponse({ success: true, message: '', data: [] });
    }),
  );
  return puts;
}

// Auto-sizing text areas listen for font loading, which jsdom does not have.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: {
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      ready: Promise.resolve(),
    },
  });
}

beforeEach(async () => {
  await i18n.changeLanguage('en');
  notifications.clean();
});
afterEach(() => vi.unstubAllGlobals());

describe('an option section', () => {
  it('sends only the values that changed, then says so', async () => {
    const puts = server();
    renderAt(
      '/',
      '/',
      <OptionSection
        title="Branding"
        options={options}
        fields={[{ key: 'SystemName' }, { key: 'Logo' }, { key: 'RetryTimes' }]}
      />,
    );
    fireEvent.change(await screen.findByLabelText('Logo image URL'), { target: { value: '/mark.svg' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(messages()).toContain('Settings saved!'));
    expect(puts).toEqual([{ key: 'Logo', value: '/mark.svg' }]);
  });

  it('says when nothing changed, without calling the server', async () => {
    const puts = server();
    renderAt('/', '/', <OptionSection title="Branding" options={options} fields={[{ key: 'SystemName' }]} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(messages()).toContain('Nothing has changed.'));
    expect(puts).toEqual([]);
  });

  it('refuses ratio JSON the shared check refuses, naming the ratio', async () => {
    const puts = server();
    renderAt('/', '/', <OptionSection title="Ratios" options={options} fields={[{ key: 'ModelRatio' }]} />);
    fireEvent.change(await screen.findByLabelText('Model ratio'), { target: { value: '{"gpt-4": ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Model ratio is not a valid JSON string');
    expect(puts).toEqual([]);
  });

  it('edits the cache ratios like the other ratios', async () => {
    const puts = server();
    const cache = { CacheReadRatio: '{"gpt-4o":0.5}', CacheWriteRatio: '{}' };
    renderAt(
      '/',
      '/',
      <OptionSection
        title="Ratios"
        options={cache}
        fields={[{ key: 'CacheReadRatio' }, { key: 'CacheWriteRatio' }]}
      />,
    );
    const read = await screen.findByLabelText('Cache read ratio');
    fireEvent.change(read, { target: { value: '{"gpt-4o":-0.5}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Cache read ratio must be a JSON object of name → number of 0 or more');
    expect(puts).toEqual([]);
    fireEvent.change(read, { target: { value: '{"gpt-4o":0.25}' } });
    fireEvent.change(screen.getByLabelText('Cache write ratio'), { target: { value: '{"claude-x":2}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(puts).toEqual([
        { key: 'CacheReadRatio', value: '{"gpt-4o":0.25}' },
        { key: 'CacheWriteRatio', value: '{"claude-x":2}' },
      ]),
    );
  });

  it('flips a boolean option between the strings true and false at once', async () => {
    const puts = server();
    renderAt(
      '/',
      '/',
      <OptionSection
        title="Logging"
        options={{ LogConsumeEnabled: 'true' }}
        toggles={['LogConsumeEnabled']}
      />,
    );
    fireEvent.click(await screen.findByRole('switch', { name: 'Record consumption logs' }));
    await waitFor(() => expect(puts).toEqual([{ key: 'LogConsumeEnabled', value: 'false' }]));
  });
});

describe('an outbound address', () => {
  it('warns while it points at loopback, a private range or link-local, and still saves', async () => {
    const puts = server();
    renderAt(
      '/',
      '/',
      <OptionSection
        title="WeChat"
        options={{ WeChatServerAddress: 'https://wechat.example.com' }}
        fields={[{ key: 'WeChatServerAddress', outbound: true }]}
      />,
    );
    const input = await screen.findByLabelText('WeChat Server address');
    expect(screen.queryByRole('note')).toBeNull();
    fireEvent.change(input, { target: { value: 'http://10.0.0.5:3000' } });
    expect(screen.getByRole('note').textContent).toMatch(/server’s own network \(a private range\)/);
    fireEvent.change(input, { target: { value: 'http://169.254.169.254' } });
    expect(screen.getByRole('note').textContent).toMatch(/\(link-local\)/);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(puts).toEqual([{ key: 'WeChatServerAddress', value: 'http://169.254.169.254' }]),
    );
    await i18n.changeLanguage('zh');
    await waitFor(() => expect(screen.getByRole('note').textContent).toMatch(/链路本地地址/));
  });
});

describe('option labels', () => {
  it('exist for every option in both languages', () => {
    for (const language of ['en', 'zh'] as const) {
      const labels = { en: englishPages, zh: chinesePages }[language].settings.options as Record<
        string,
        { label: string }
      >;
      expect(
        OPTION_KEYS.filter((key) => !labels[key]?.label),
        language,
      ).toEqual([]);
    }
  });
});
