/**
 * `compute(key)` remembered for the keys seen lately: at most `kept` of them, all forgotten at once
 * when that many are kept (a hot path's few keys come back at once; a flood of new ones cannot grow it).
 * A key whose computation throws is not remembered.
 */
export function boundedMemo<K, V>(kept: number, compute: (key: K) => V): (key: K) => V {
  const values = new Map<K, V>();
  return (key) => {
    let value = values.get(key);
    if (value === undefined) {
      value = compute(key);
      if (values.size >= kept) values.clear();
      values.set(key, value);
    }
    return value;
  };
}
