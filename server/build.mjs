import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

// Bundle our own code (and the shared contract, which ships as TypeScript); keep npm packages external.
await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'externalise-packages',
      setup(pluginBuild) {
        pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@switchyard/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});

// esbuild writes strings as ASCII but keeps comments as they are: one non-ASCII character in a comment
// makes V8 hold the whole bundle's source as two-byte text (1.5 MiB instead of 0.8). Comments only.
const bundle = readFileSync('dist/main.js', 'utf8');
const nonAscii = /[^\t\n\r -~]/gu;
const lines = bundle.split('\n');
for (const [index, line] of lines.entries()) {
  if (!line.match(nonAscii)) continue;
  const code = line.trimStart();
  const comment = code.startsWith('//') || code.startsWith('*') || code.startsWith('/*');
  if (!comment) throw new Error(`dist/main.js:${index + 1}: a non-ASCII character outside a comment`);
  lines[index] = line.replace(nonAscii, (character) => `\\u{${character.codePointAt(0).toString(16)}}`);
}
writeFileSync('dist/main.js', lines.join('\n'));
