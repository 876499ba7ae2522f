import { notifications, notificationsStore } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { jsonResponse, renderAt } from '../../../test/render';
import { ChannelsPage } from './ChannelsPage';

const messages = () => notificationsStore.getState().notifications.map((n) => String(n.message));

const channel = (id: number, patch: Record<string, unknown> = {}) => ({
  id,
  type: 1,
  key: '',
  status: 1,
  name: `channel-${id}`,
  weight: 0,
  created_time: 1_700_000_000,
  test_time: 0,
  response_time: 0,
  base_url: '',
  other: '',
  balance: 0,
  balance_updated_time: 0,
  models: 'gpt-4o',
  group: 'default',
  used_quota: 0,
  model_mapping: '',
  priority: 0,
  config: '',
  system_prompt: '',
  test_error: '',
  ...patch,
});

const LIST = [
  channel(1, { response_time: 800, balance: 12.5 }),
  channel(2, { type: 5, status: 2, response_time: 2500, balance: 123456 }),
  channel(3, { type: 14, status: 3, response_time: 7000 }),
];

type Handler = (url: string, init?: RequestInit) => Response | undefined;

function server(handler: Handler = () => undefined) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const answer = handler(url, init);
    if (answer) return answer;
    if (url.startsWith('/api/channel/?p=0')) return jsonResponse({ success: true, message: '', data: LIST });
    if (url === '/api/models') return jsonResponse({ success: true, message: '', data: { 1: ['gpt-4o'] } });
    return jsonResponse({ success: true, message: '', data: [] });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const row = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;
const bodyOf = (call: unknown[] | undefined) =>
  JSON.parse(String((call?.[1] as RequestInit | undefined)?.body));

beforeEach(async () => {
  await i18n.changeLanguage('en');
  notifications.clean();
});
afterEach(() => vi.unstubAllGlobals());

describe('channel list', () => {
  it('shows type, status, coloured response time and balance in the type unit', async () => {
    server();
    renderAt('/channel', '/channel', <ChannelsPage />);
    const first = await row('channel-1');
    expect(within(first).getByText('OpenAI')).toBeTruthy();
    expect(within(first).getByText('Enabled')).toBeTruthy();
    expect(within(first).getByText('0.80 s').closest('[data-color]')?.getAttribute('data-color')).toBe(
      'green',
    );
    expect(within(first).getByText('$12.50')).toBeTruthy();
    expect(within(first).getByRole('button', { name: 'Disable' })).toBeTruthy();

    const second = await row('channel-2');
    expect(within(second).getByText('Proxy: OpenAI-SB')).toBeTruthy();
    expect(within(second).getByText('Disabled')).toBeTruthy();
    expect(within(second).getByText('2.50 s').closest('[data-color]')?.getAttribute('data-color')).toBe(
      'lime',
    );
    expect(within(second).getByText('¥12.35')).toBeTruthy();
    expect(within(second).getByRole('button', { name: 'Enable' })).toBeTruthy();

    const third = await row('channel-3');
    expect(within(third).getByText('Auto-disabled')).toBeTruthy();
    expect(within(third).getByText('7.00 s').closest('[data-color]')?.getAttribute('data-color')).toBe('red');
    expect(within(third).getByText('Not supported')).toBeTruthy();
    expect(screen.getByTestId('channels-note').textContent).toContain('so their balance shows 0');
  });

  it('says "not tested" for a channel never tested', async () => {
    server((url) =>
      url.startsWith('/api/channel/?p=0')
        ? jsonResponse({ success: true, message: '', data: [channel(4)] })
        : undefined,
    );
    renderAt('/channel', '/channel', <ChannelsPage />);
    expect(within(await row('channel-4')).getByText('Not tested')).toBeTruthy();
  });

  it('disables with {id, status: 2} and shows the saved status', async () => {
    const fetchMock = server((url, init) =>
      url === '/api/channel/' && init?.method === 'PUT'
        ? jsonResponse({ success: true, message: '', data: { ...LIST[0], status: 2 } })
        : undefined,
    );
    renderAt('/channel', '/channel', <ChannelsPage />);
    fireEvent.click(within(await row('channel-1')).getByRole('button', { name: 'Disable' }));
    await within(await row('channel-1')).findByRole('button', { name: 'Enable' });
    const put = fetchMock.mock.calls.find(([url, init]) => url === '/api/channel/' && init?.method === 'PUT');
    expect(bodyOf(put)).toEqual({ id: 1, status: 2 });
  });

  it('saves an inline priority on blur, ignores an empty one and clamps a negative weight', async () => {
    let saved = { ...LIST[0] };
    const fetchMock = server((url, init) => {
      if (url !== '/api/channel/' || init?.method !== 'PUT') return undefined;
      saved = { ...saved, ...bodyOf([url, init]) };
      return jsonResponse({ success: true, message: '', data: saved });
    });
    renderAt('/channel', '/channel', <ChannelsPage />);
    const first = await row('channel-1');
    const priority = within(first).getByLabelText('Priority') as HTMLInputElement;
    fireEvent.change(priority, { target: { value: '' } });
    fireEvent.blur(priority);
    fireEvent.change(priority, { target: { value: '7' } });
    fireEvent.blur(priority);
    await waitFor(() => expect(messages()).toContain('Operation completed successfully!'));
    const weight = within(first).getByLabelText('Weight') as HTMLInputElement;
    fireEvent.change(weight, { target: { value: '-4' } });
    fireEvent.blur(weight);
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'PUT').map(bodyOf)).toEqual([
        { id: 1, priority: 7 },
        { id: 1, weight: 0 },
      ]),
    );
    await waitFor(() => expect(weight.value).toBe('0'));
    expect(priority.value).toBe('7');
  });

  it('tests a channel, shows the time and colours the row by it', async () => {
    server((url) =>
      url === '/api/channel/test/1/'
        ? jsonResponse({
            success: true,
            message: 'hi',
            time: 3.456,
            data: { time: 3.456, modelName: 'gpt-4o' },
          })
        : undefined,
    );
    renderAt('/channel', '/channel', <ChannelsPage />);
    fireEvent.click(within(await row('channel-1')).getByRole('button', { name: 'Test' }));
    await waitFor(() => expect(messages()).toContain('Channel channel-1 tested successfully in 3.46 s.'));
    const badge = within(await row('channel-1')).getByText('3.46 s');
    expect(badge.closest('[data-color]')?.getAttribute('data-color')).toBe('yellow');
  });

  it("shows the server's message when a test or a balance read fails", async () => {
    server((url) => {
      if (url === '/api/channel/test/1/')
        return jsonResponse({ success: false, message: 'Incorrect API key provided', time: 0.2 });
      if (url === '/api/channel/update_balance/2/')
        return jsonResponse({ success: false, message: 'The upstream answered 401 to the balance read' });
      return undefined;
    });
    renderAt('/channel', '/channel', <ChannelsPage />);
    fireEvent.click(within(await row('channel-1')).getByRole('button', { name: 'Test' }));
    await waitFor(() => expect(messages()).toContain('Incorrect API key provided'));
    fireEvent.click(within(await row('channel-2')).getByRole('button', { name: 'Update balance' }));
    await waitFor(() => expect(messages()).toContain('The upstream answered 401 to the balance read'));
  });

  it('offers no balance refresh where the type has no balance to read', async () => {
    server();
    renderAt('/channel', '/channel', <ChannelsPage />);
    const anthropic = await row('channel-3');
    expect(within(anthropic).getByTestId('balance').textContent).toBe('Not supported');
    expect(within(anthropic).queryByRole('button', { name: 'Update balance' })).toBeNull();
  });

  it('updates the balance from the answer', async () => {
    server((url) =>
      url === '/api/channel/update_balance/1/'
        ? jsonResponse({ success: true, message: '', balance: 42.1, data: { balance: 42.1 } })
        : undefined,
    );
    renderAt('/channel', '/channel', <ChannelsPage />);
    fireEvent.click(within(await row('channel-1')).getByRole('button', { name: 'Update balance' }));
    await within(await row('channel-1')).findByText('$42.10');
    expect(messages()).toContain('Balance of channel channel-1 updated!');
  });

  it('starts the tests of all or of the disabled channels', async () => {
    const fetchMock = server();
    renderAt('/channel', '/channel', <ChannelsPage />);
    await row('channel-1');
    fireEvent.click(screen.getByRole('button', { name: 'Test all channels' }));
    await waitFor(() =>
      expect(messages()).toContain('Channel tests have started; refresh the page to see the results.'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Test disabled channels' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(
        expect.arrayContaining(['/api/channel/test?scope=all', '/api/channel/test?scope=disabled']),
      ),
    );
  });

  it('deletes all disabled channels after confirmation and says how many', async () => {
    const fetchMock = server((url, init) =>
      url === '/api/channel/disabled' && init?.method === 'DELETE'
        ? jsonResponse({ success: true, message: '', data: 2 })
        : undefined,
    );
    renderAt('/channel', '/channel', <ChannelsPage />);
    await row('channel-1');
    fireEvent.click(screen.getByRole('button', { name: 'Delete disabled channels' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Confirm: delete every disabled channel' }));
    await waitFor(() => expect(messages()).toContain('All disabled channels deleted: 2 in total.'));
    expect(fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/channel/?p=0')).length).toBe(
      2,
    );
  });

  it('deletes one channel after confirmation and hides its row', async () => {
    server((url, init) =>
      url === '/api/channel/2/' && init?.method === 'DELETE'
        ? jsonResponse({ success: true, message: '' })
        : undefined,
    );
    renderAt('/channel', '/channel', <ChannelsPage />);
    fireEvent.click(within(await row('channel-2')).getByRole('button', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete channel channel-2' }));
    await waitFor(() => expect(screen.queryByText('channel-2')).toBeNull());
  });

  it('searches by keyword', async () => {
    const fetchMock = server((url) =>
      url.startsWith('/api/channel/search')
        ? jsonResponse({ success: true, message: '', data: [channel(3)] })
        : undefined,
    );
    renderAt('/channel', '/channel', <ChannelsPage />);
    await row('channel-1');
    const box = screen.getByPlaceholderText('Search channels by ID or name...');
    fireEvent.change(box, { target: { value: ' 3 ' } });
    fireEvent.submit(box.closest('form') as HTMLFormElement);
    await waitFor(() => expect(screen.queryByText('channel-1')).toBeNull());
    expect(await screen.findByText('channel-3')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/channel/search?keyword=3')).toBe(true);
  });
});
