import { ERROR_MESSAGES } from '@switchyard/contract/error-messages';
import { describe, expect, it } from 'vitest';
import { chinesePages } from './chinese-pages';
import { chineseSignIn } from './chinese-sign-in';
import { englishPages } from './english-pages';
import { englishSignIn } from './english-sign-in';

const english = { ...englishSignIn, ...englishPages };
const chinese = { ...chineseSignIn, ...chinesePages };

const sources = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!./**'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

function lookup(tree: unknown, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
}

/** Every text of a tree of messages, with its dotted key. */
function leaves(tree: unknown, prefix = ''): Array<[string, string]> {
  return Object.entries(tree as Record<string, unknown>).flatMap(([key, value]) =>
    typeof value === 'string'
      ? [[`${prefix}${key}`, value] as [string, string]]
      : leaves(value, `${prefix}${key}.`),
  );
}

/**
 * Chinese text ending in an ASCII full stop right after a Chinese character, a full-width mark, a
 * bracket or a placeholder. An ellipsis ("...") and a code name ("user.") are not sentence stops.
 */
const ASCII_STOP_AFTER_CHINESE =
  /^(?=.*\p{Script=Han}).*(?:\p{Script=Han}|[\u3000-\u303f\uff00-\uffef]|\}\}|\))\.\s*$/u;

function leafKeys(tree: unknown, prefix = ''): string[] {
  return Object.entries(tree as Record<string, unknown>).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : leafKeys(value, `${prefix}${key}.`),
  );
}

describe('translations', () => {
  it('have the same keys in Chinese and English', () => {
    expect(leafKeys(chinese).sort()).toEqual(leafKeys(english).sort());
  });

  it('end Chinese sentences with "。", never an ASCII full stop', () => {
    const refusals = Object.fromEntries(Object.entries(ERROR_MESSAGES).map(([code, { zh }]) => [code, zh]));
    const texts = [...leaves(chinese), ...leaves(refusals, 'refusal.')];
    expect(texts.length).toBeGreaterThan(500);
    expect(texts.filter(([, text]) => ASCII_STOP_AFTER_CHINESE.test(text))).toEqual([]);
    // The rule itself: a sentence's stop is caught, an ellipsis or an English-only text is not.
    const samples = [
      '请先登录.',
      '共 {{count}} 条（已过滤）.',
      '请先登录。',
      '加载中...',
      'user.update 或 user.',
      'Done.',
    ];
    expect(samples.map((text) => ASCII_STOP_AFTER_CHINESE.test(text))).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  it('contain every literal key the console uses', () => {
    const used = new Set<string>();
    for (const text of Object.values(sources)) {
      for (const match of text.matchAll(/\bt\(\s*'([\w.]+)'/g)) used.add(match[1]!);
    }
    expect(used.size).toBeGreaterThan(50);
    const missing = [...used].filter(
      (key) => typeof lookup(english, key) !== 'string' || typeof lookup(chinese, key) !== 'string',
    );
    expect(missing).toEqual([]);
  });
});
