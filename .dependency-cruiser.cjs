// The server's layers (docs/architecture.md, "Layers"): a module may import from its own layer and the
// layers below it, never from one above; and no import circles, type imports included.
// `npm run lint` runs it.
const LAYERS = [
  ['main', '^server/src/main[.]ts$'],
  ['app', '^server/src/(app|services-wiring)[.]ts$'],
  ['api', '^server/src/api/'],
  ['jobs', '^server/src/jobs/'],
  ['relay', '^server/src/relay/'],
  ['http', '^server/src/http/'],
  ['cluster', '^server/src/cluster/'],
  ['domain', '^server/src/domain/'],
  ['db', '^server/src/db/'],
  [
    'config',
    '^server/src/(config/|metrics/|(logging|clock|bounded-memo|on-first-use|serial-reload|node-http)[.]ts$)',
  ],
];
// Inside the relay: a client's format is translated in front, the pipeline routes and bills, adaptors
// speak each provider's format, upstream sends; the relay's own errors and helpers are below them all.
const RELAY_LAYERS = [
  ['relay front', '^server/src/relay/front/'],
  ['relay pipeline', '^server/src/relay/pipeline/'],
  ['relay adaptors', '^server/src/relay/adaptors/'],
  ['relay upstream', '^server/src/relay/upstream[.]ts$'],
  ['relay base', '^server/src/relay/[^/]+[.]ts$'],
];

const upwards = (layers) =>
  layers.slice(1).map(([name, path], index) => ({
    name: `${name.replace(/ /g, '-')}-imports-no-layer-above`,
    comment: `${name} may not import from ${layers
      .slice(0, index + 1)
      .map(([above]) => above)
      .join(', ')}`,
    severity: 'error',
    from: { path, pathNot: '[.]test[.]ts$' },
    to: { path: layers.slice(0, index + 1).map(([, above]) => above) },
  }));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^server/src/' },
      to: { circular: true },
    },
    {
      name: 'every-server-file-has-a-layer',
      severity: 'error',
      from: { path: '^server/src/', pathNot: [...LAYERS.map(([, path]) => path), '[.]test[.]ts$'] },
      to: {},
    },
    ...upwards(LAYERS),
    // relay upstream and relay base share the pattern of relay-root files: upstream.ts is excluded below.
    ...upwards(RELAY_LAYERS).map((rule) =>
      rule.name.startsWith('relay-base')
        ? { ...rule, from: { ...rule.from, pathNot: ['[.]test[.]ts$', '^server/src/relay/upstream[.]ts$'] } }
        : rule,
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['[.]test[.]ts$', '^server/test/'] },
    parser: 'swc',
    tsConfig: { fileName: 'server/tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
