// Plain-text tables: columns as wide as their widest cell; the first `textColumns` columns are
// left-aligned, the figures after them right-aligned.

export function printTable(title: string, header: string[], rows: string[][], textColumns = 1): void {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, column) =>
        column < textColumns ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
      )
      .join(' | ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('-|-'));
  for (const row of rows) console.log(line(row));
}

/** A number with a fixed count of decimals, or – when there is none. */
export const fixed = (value: number | undefined, digits = 2): string =>
  value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);
