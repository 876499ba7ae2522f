import { build } from 'esbuild';

// Bundle our own code (and the shared contract, which ships as TypeScript); keep npm packages external.
await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
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
