import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The repository's own documents and sources, checked as text: links that resolve, no tracker numbers.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const tracked = (): string[] =>
  execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((file) => file !== '' && fs.existsSync(path.join(ROOT, file)));

/** Every Markdown file the repository keeps: the README, the security policy, docs/ and the suites' notes. */
const markdownFiles = (): string[] => tracked().filter((file) => file.endsWith('.md'));

/** The text a reader sees as prose: fenced blocks and inline code spans taken out. */
const prose = (markdown: string): string =>
  markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string): string =>
  heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const text = fs.readFileSync(file, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, heading = ''] of text.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every relative link of a Markdown file that does not lead to a file, or to a heading, that exists. */
function brokenLinks(file: string): string[] {
  const absolute = path.join(ROOT, file);
  const broken: string[] = [];
  for (const [, target = ''] of prose(fs.readFileSync(absolute, 'utf8')).matchAll(
    /\]\(([^)\s]+)(?: "[^"]*")?\)/g,
  )) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
    const [linkPath = '', anchor] = target.split('#');
    const resolved = linkPath === '' ? absolute : path.resolve(path.dirname(absolute), decodeURI(linkPath));
    if (!fs.existsSync(resolved)) broken.push(`${target} (no such file)`);
    else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor))
      broken.push(`${target} (no such heading)`);
  }
  return broken;
}

describe('the repository documents', () => {
  it('lists the documents a newcomer is sent to', () => {
    const files = markdownFiles();
    for (const file of ['README.md', 'SECURITY.md', 'docs/api.md', 'docs/configuration.md'])
      expect(files).toContain(file);
  });

  it.each(markdownFiles())('%s: every relative link leads to a file and heading that exist', (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it('sources name only documents that exist', () => {
    const missing = tracked()
      .filter((file) => /\.(ts|tsx|mjs|js)$/.test(file) || file.startsWith('.ci/'))
      .flatMap((file) => {
        const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
        const named = text.match(/(?<![\w/.-])(?:docs\/[\w.-]+|README|SECURITY|CONTRIBUTING)\.md/g) ?? [];
        return named.filter((doc) => !fs.existsSync(path.join(ROOT, doc))).map((doc) => `${file}: ${doc}`);
      });
    expect(missing).toEqual([]);
  });

  it('cite no internal tracker numbers: each says what the thing is instead', () => {
    const citing = tracked()
      .filter((file) => file !== 'package-lock.json')
      .flatMap((file) => {
        const text = fs.readFileSync(path.join(ROOT, file));
        if (text.length > 2_000_000 || text.includes(0)) return [];
        return text
          .toString('utf8')
          .split('\n')
          .flatMap((line, index) =>
            /\bissues? ?#?\d+/i.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
          );
      });
    expect(citing).toEqual([]);
  });
});
