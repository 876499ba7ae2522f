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

function leafKeys(tree: unknown, prefix = ''): string[] {
  return Object.entries(tree as Record<string, unknown>).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : leafKeys(value, `${prefix}${key}.`),
  );
}

describe('translations', () => {
  it('have the same keys in Chinese and English', () => {
    expect(leafKeys(chinese).sort()).toEqual(leafKeys(english).sort());
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
