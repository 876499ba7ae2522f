import { describe, expect, it } from 'vitest';
import { chatAppLink } from './chat-links';

const context = { chatLink: '', serverAddress: 'https://gw.example.com' };

describe('chat links of a key', () => {
  it('open the hosted ChatGPT Next Web with the key and the server address when no chat link is set', () => {
    expect(chatAppLink('next-web', 'abc', context)).toBe(
      'https://chat.oneapi.pro/#/?settings={"key":"sk-abc","url":"https://gw.example.com"}',
    );
  });

  it('use the configured chat link, without a doubled slash', () => {
    expect(chatAppLink('next-web', 'abc', { ...context, chatLink: 'https://chat.example.com/' })).toBe(
      'https://chat.example.com/#/?settings={"key":"sk-abc","url":"https://gw.example.com"}',
    );
  });

  it('hand the key to BotGem and OpenCat with the address encoded', () => {
    expect(chatAppLink('botgem', 'abc', context)).toBe(
      'ama://set-api-key?server=https%3A%2F%2Fgw.example.com&key=sk-abc',
    );
    expect(chatAppLink('opencat', 'abc', context)).toBe(
      'opencat://team/join?domain=https%3A%2F%2Fgw.example.com&token=sk-abc',
    );
  });
});
