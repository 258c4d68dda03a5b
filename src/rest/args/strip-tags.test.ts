import { describe, expect, test } from 'vitest';
import { stripTags } from './strip-tags.js';

describe('stripTags follows PHP 8 strip_tags', () => {
  test.each<[string, string]>([
    ['<p>Hello</p>', 'Hello'],
    ['a < b', 'a < b'],
    ['5 > 3', '5 > 3'],
    ['<a title="x>y">z</a>', 'z'],
    ["<a title='x>y'>z</a>", 'z'],
    ['<!DOCTYPE html><p>x</p>', 'x'],
    ['<!-- c > still comment -->x', 'x'],
    ['<!x>y', 'y'],
    ['<? echo "?>" ?>x', 'x'],
    ['<?php if (a > b) { } ?>x', 'x'],
    ['<?xml version="1.0"?><a>b</a>', 'b'],
    ['<<b>>x', 'x'],
    ['a\u0000b<i>c</i>', 'abc'],
    ['unclosed <b', 'unclosed '],
    ['<\nnot a tag>', '<\nnot a tag>'],
    ['日本<b>語</b>', '日本語'],
  ])('%j becomes %j', (input, expected) => {
    expect(stripTags(input)).toBe(expected);
  });
});
