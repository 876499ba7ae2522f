// After `vite build`: the gzip size of the JavaScript the sign-in page needs (the entry chunk, which holds
// the sign-in page, the larger language's sign-in messages and everything they import statically), read
// from Vite's manifest. Fails past the budget.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 170;
const SIGN_IN_ROUTE = 'src/features/auth/components/LoginPage.tsx';
const SIGN_IN_MESSAGES = ['src/i18n/english-sign-in.ts', 'src/i18n/chinese-sign-in.ts'];

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const manifestFile = path.join(dist, '.vite/manifest.json');
const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));

const gzipSize = (file) => gzipSync(fs.readFileSync(path.join(dist, file))).length;

/** The files of `keys` and of everything they import statically, added to `files`. */
function collect(keys, files = new Set()) {
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the Vite manifest`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return files;
}

const total = (files) => [...files].reduce((sum, file) => sum + gzipSize(file), 0);
// The router imports the sign-in page statically (then it is in the entry's files); were it lazy, its chunk.
const files = collect(SIGN_IN_ROUTE in manifest ? ['index.html', SIGN_IN_ROUTE] : ['index.html']);
const [largestLanguage] = SIGN_IN_MESSAGES.map((key) => collect([key], new Set(files))).sort(
  (a, b) => total(b) - total(a),
);
for (const file of largestLanguage) files.add(file);
// The manifest only serves this check; the console does not ship it.
fs.rmSync(path.dirname(manifestFile), { recursive: true, force: true });

const sizes = [...files].map((file) => ({ file, gzip: gzipSize(file) }));
sizes.sort((a, b) => b.gzip - a.gzip);
const totalKb = sizes.reduce((sum, { gzip }) => sum + gzip, 0) / 1024;
for (const { file, gzip } of sizes) console.log(`  ${(gzip / 1024).toFixed(1).padStart(7)} KB  ${file}`);
console.log(
  `Sign-in page JavaScript: ${totalKb.toFixed(1)} KB gzip in ${files.size} files (budget ${BUDGET_KB} KB)`,
);
if (totalKb > BUDGET_KB) {
  console.error(`Over the sign-in bundle budget by ${(totalKb - BUDGET_KB).toFixed(1)} KB`);
  process.exit(1);
}
