import { notifications, notificationsStore } from '@mantine/notifications';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { jsonResponse, renderAt } from '../../../test/render';
import { ChannelFormPage } from './ChannelFormPage';

const messages = () => notificationsStore.getState().notifications.map((n) => String(n.message));
const ok = (data: unknown) => jsonResponse({ success: true, message: '', data });

const TYPE_MODELS = { 1: ['gpt-4o', 'gpt-4o-mini'], 14: ['claude-3-haiku-20240307'], 18: ['SparkDesk-v3.5'] };

type Handler = (url: string, init?: RequestInit) => Response | undefined;

function server(handler: Handler = () => undefined) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const answer = handler(url, init);
    if (answer) return answer;
    if (url === '/api/models') return ok(TYPE_MODELS);
    if (url === '/api/channel/models')
      return jsonResponse({
        success: true,
        message: '',
        object: 'list',
        data: [{ id: 'a-model' }, { id: 'b-model' }],
      });
    if (url === '/api/group/') return ok(['default', 'vip']);
    return ok(null);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const sent = (fetchMock: ReturnType<typeof server>, method: string) => {
  const call = fetchMock.mock.calls.find(([url, init]) => url === '/api/channel/' && init?.method === method);
  return call ? JSON.parse(String(call[1]?.body)) : undefined;
};

const input = (name: string) => document.querySelector(`[name="${name}"]`) as HTMLInputElement;
const type = (name: string, value: string) => fireEvent.change(input(name), { target: { value } });

async function chooseType(label: string) {
  fireEvent.click(screen.getByTestId('channel-type'));
  // The dropdown's options are in the DOM while it animates open; pick by text.
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll('[role="option"]')].find(
      (node) => node.textContent === label,
    );
    if (!found) throw new Error(`no option ${label}`);
    return found;
  });
  fireEvent.click(option);
}

beforeAll(() => {
  // jsdom lays nothing out; the combobox scrolls its active option into view.
  Element.prototype.scrollIntoView ??= () => undefined;
  // jsdom has no FontFaceSet; Mantine's autosizing text boxes listen to it.
  if (!document.fonts)
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { addEventListener: () => undefined, removeEventListener: () => undefined },
    });
});

beforeEach(async () => {
  await i18n.changeLanguage('en');
  notifications.clean();
});
afterEach(() => vi.unstubAllGlobals());

describe('channel form', () => {
  it('gives the spec messages before sending anything', async () => {
    const fetchMock = server();
    renderAt('/channel/add', '/channel/add', <ChannelFormPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Submit' }));
    expect(await screen.findAllByText('Please fill in the channel name and channel key!')).toHaveLength(2);
    expect(screen.getByText('Please select at least one model!')).toBeTruthy();
    type('model_mapping', '{"gpt-4-0314": ');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Model mapping must be valid JSON!')).toBeTruthy();
    expect(sent(fetchMock, 'POST')).toBeUndefined();
  });

  it("shows the key format of the type and pre-fills the type's models when none are chosen", async () => {
    server();
    renderAt('/channel/add', '/channel/add', <ChannelFormPage />);
    await screen.findByRole('button', { name: 'Submit' });
    await waitFor(() => expect(window.localStorage.getItem('channel_models')).toContain('claude'));
    await chooseType('Anthropic Claude');
    expect(await screen.findByText('Models selected: 1')).toBeTruthy();
    expect(input('models').value).toBe('claude-3-haiku-20240307');
    await chooseType('iFlytek Spark');
    expect(input('models').value).toBe('claude-3-haiku-20240307');
    expect(input('key').placeholder).toBe('Enter it in the format APPID|APISecret|APIKey');
    expect(input('other').value).toBe('v2.1');
    expect(input('base_url')).toBeNull();
    await chooseType('Baidu Wenxin');
    expect(input('key').placeholder).toBe('Enter it in the format APIKey|SecretKey');
    expect(input('other')).toBeNull();
  });

  it('fills the default, all or a custom model, and clears them', async () => {
    server();
    renderAt('/channel/add', '/channel/add', <ChannelFormPage />);
    await screen.findByRole('button', { name: 'Submit' });
    await waitFor(() => expect(window.localStorage.getItem('channel_models')).not.toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Fill default models' }));
    expect(await screen.findByText('Models selected: 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Fill all models' }));
    await screen.findByText('b-model');
    expect(screen.getByText('Models selected: 2')).toBeTruthy();
    type('custom_model', 'my-model');
    fireEvent.keyDown(input('custom_model'), { key: 'Enter' });
    expect(await screen.findByText('Models selected: 3')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear all models' }));
    expect(await screen.findByText('Models selected: 0')).toBeTruthy();
  });

  it('creates one channel per key line in batch mode', async () => {
    const fetchMock = server((url, init) =>
      url === '/api/channel/' && init?.method === 'POST' ? ok({ ids: [4, 5] }) : undefined,
    );
    const router = renderAt('/channel/add', '/channel/add', <ChannelFormPage />, ['/channel']);
    await screen.findByRole('button', { name: 'Submit' });
    type('name', 'pool');
    fireEvent.click(screen.getByLabelText('Batch creation'));
    expect(input('key').tagName).toBe('TEXTAREA');
    type('key', 'sk-one\n\nsk-two\n');
    expect(screen.getByText('One channel is created for each line: 2 now.')).toBeTruthy();
    type('base_url', 'https://proxy.example.com/');
    fireEvent.click(screen.getByRole('button', { name: 'Fill default models' }));
    fireEvent.click(screen.getByRole('button', { name: 'Use the example' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(messages()).toContain('2 channels created!'));
    expect(router.state.location.pathname).toBe('/channel');
    expect(sent(fetchMock, 'POST')).toEqual({
      type: 1,
      name: 'pool',
      key: 'sk-one\nsk-two',
      base_url: 'https://proxy.example.com',
      other: '',
      models: 'gpt-4o,gpt-4o-mini',
      group: 'default',
      model_mapping:
        '{"gpt-3.5-turbo-0301":"gpt-3.5-turbo","gpt-4-0314":"gpt-4","gpt-4-32k-0314":"gpt-4-32k"}',
      priority: 0,
      weight: 0,
    });
  });

  it('edits a channel, keeping the hidden key when the box stays empty', async () => {
    window.localStorage.setItem('user', JSON.stringify({ id: 2, username: 'admin', role: 10, status: 1 }));
    const fetchMock = server((url, init) => {
      if (url === '/api/channel/7')
        return ok({
          id: 7,
          type: 3,
          key: '',
          status: 1,
          name: 'azure',
          weight: 1,
          base_url: 'https://x.openai.azure.com',
          other: '2024-02-01',
          models: 'gpt-4o',
          group: 'vip',
          model_mapping: '',
          priority: 2,
        });
      if (url === '/api/channel/' && init?.method === 'PUT') return ok({});
      return undefined;
    });
    renderAt('/channel/edit/7', '/channel/edit/:id', <ChannelFormPage />, ['/channel']);
    await waitFor(() => expect(input('name')?.value).toBe('azure'));
    expect(screen.queryByLabelText('Batch creation')).toBeNull();
    expect(
      screen.getByText(
        'Keys are shown to the super administrator only; leave empty to keep the current key. Changing the type, base URL or settings needs the key entered again.',
      ),
    ).toBeTruthy();
    expect(input('other').value).toBe('2024-02-01');
    type('weight', '5');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(messages()).toContain('Channel updated!'));
    expect(sent(fetchMock, 'PUT')).toMatchObject({
      id: 7,
      type: 3,
      name: 'azure',
      other: '2024-02-01',
      group: 'vip',
      weight: 5,
      priority: 2,
    });
    // The contract reads an empty key as "keep the stored one", so none is sent.
    expect(sent(fetchMock, 'PUT')).not.toHaveProperty('key');
  });

  it("shows the server's refusal when an administrator moves a channel without entering its key", async () => {
    window.localStorage.setItem('user', JSON.stringify({ id: 2, username: 'admin', role: 10, status: 1 }));
    server((url, init) => {
      if (url === '/api/channel/7')
        return ok({
          id: 7,
          type: 1,
          key: '',
          status: 1,
          name: 'openai',
          weight: 0,
          base_url: 'https://api.example.com',
          other: '',
          models: 'gpt-4o',
          group: 'default',
          model_mapping: '',
          priority: 0,
        });
      if (url === '/api/channel/' && init?.method === 'PUT')
        return jsonResponse({
          success: false,
          message: 'refused',
          code: 'channel_destination_needs_key',
          params: { field: 'base_url' },
        });
      return undefined;
    });
    renderAt('/channel/edit/7', '/channel/edit/:id', <ChannelFormPage />, ['/channel']);
    await waitFor(() => expect(input('name')?.value).toBe('openai'));
    type('base_url', 'http://127.0.0.1:19099');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(messages()).toContain(
        'Only root can change where a channel sends its credentials (base_url) while keeping them; enter new credentials along with the change (the key, or every secret setting of this type)',
      ),
    );
    expect(messages()).not.toContain('Channel updated!');
  });
});
