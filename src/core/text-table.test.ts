import { describe, expect, it } from 'vitest';
import { textTable } from './text-table.js';

describe('textTable', () => {
  it('puts a header row over columns two spaces apart, each as wide as its widest cell', () => {
    expect(
      textTable(
        ['ID', 'LOGIN', 'EMAIL'],
        [
          ['1', 'administrator', 'a@example.org'],
          ['12', 'ann', '-'],
        ],
      ),
    ).toEqual(['ID  LOGIN          EMAIL', '1   administrator  a@example.org', '12  ann            -']);
  });

  it('right-aligns the columns it is told to, indents every line, and ends no line in spaces', () => {
    const lines = textTable(
      ['ID', 'SIZE', 'NOTE'],
      [
        ['a', '5', ''],
        ['b', '1234', 'big'],
      ],
      { right: [1], indent: '  ' },
    );
    expect(lines).toEqual(['  ID  SIZE  NOTE', '  a      5', '  b   1234  big']);
  });
});
