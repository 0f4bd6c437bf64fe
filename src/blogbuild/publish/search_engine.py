"""The term shards' parts of a range of posts, made in V8: what search_index._whole_in_python() defines,
about three times faster.

A range's part of every shard is a group-by over its postings (~900 pieces a post, each with its occurrences,
capped at 10, and the UTF-16 offset of its first) and a JSON encoding: per posting work. Over 1,000 synthetic
posts (bench/synth.py) Python's definition spends ~2.3 CPU s on it, this script ~0.7 s and ~0.15 s to start
its isolate (`bench/bench_stages.py SITE` with `search_index: sharded`: the Planner.plan row).

The script folds and classifies characters by the table search_index teaches it (each character's fold
and class: 'c' CJK, 'w' word, ' ' other), so it finds the pieces search_index.postings() finds, and lays
the parts out as _whole_in_python() does: byte for byte the same (tests/test_search_index.py compares them).
A post with a character that folds out of place (an astral character, one that folds to two) comes with
its pieces made by Python ("premade").

blogbuildRangeParts(learn, texts, lengths, premadeKeys, premadeNumbers, count):
- learn: characters not taught before, three characters each: the character, its fold, its class;
- texts: the range's posts' texts, concatenated (oldest first), but for the premade posts;
- lengths: each post's length in texts, comma-joined; -1 for a premade post;
- premadeKeys: the premade posts' piece keys (kind + piece), space-joined, one line per post;
- premadeNumbers: their (occurrences, first offset) pairs, comma-joined, in the same order;
- count: the number of shards.
It returns the parts (JSON objects, newline-joined), then each post's piece keys (sorted, space-joined),
each led by U+FFFF, which no piece holds.
"""
from __future__ import annotations

import os
from typing import Any

_SCRIPT = r"""
var BLOGBUILD_FOLD = new Uint16Array(65536), BLOGBUILD_CLASS = new Uint8Array(65536);

function blogbuildLearn(table) {
  for (var index = 0; index + 2 < table.length; index += 3) {
    BLOGBUILD_FOLD[table.charCodeAt(index)] = table.charCodeAt(index + 1);
    BLOGBUILD_CLASS[table.charCodeAt(index)] = table.charCodeAt(index + 2);
  }
}

// The folded text, by the table: every character of a post folded here folds to one character in its place.
function blogbuildFold(texts) {
  var parts = [], codes = new Uint16Array(8192);
  for (var start = 0; start < texts.length; start += 8192) {
    var length = Math.min(8192, texts.length - start);
    for (var index = 0; index < length; index++) codes[index] = BLOGBUILD_FOLD[texts.charCodeAt(start + index)];
    parts.push(String.fromCharCode.apply(null, length === 8192 ? codes : codes.subarray(0, length)));
  }
  return parts.join("");
}

function blogbuildFnv1a(text) {
  var value = 0x811c9dc5;
  for (var index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

// A piece seen at `at` in post: a new [post, 1, at] triple, or one more occurrence (at most 10).
function blogbuildTally(table, key, post, at) {
  var list = table.get(key);
  if (list === undefined) { table.set(key, [post, 1, at]); return; }
  var last = list.length - 3;
  if (list[last] !== post) list.push(post, 1, at);
  else if (list[last + 1] < 10) list[last + 1]++;
}

// search_index.postings() over one post folded here (no astral character: each UTF-16 unit is a character):
// CJK characters (singles, by code), bigrams (pairs, by first code then second), one- and two-character word prefixes and
// words (strings, by key). texts: the posts as written, for their characters' classes.
function blogbuildScan(folded, texts, start, end, post, tables) {
  var singles = tables.singles, pairs = tables.pairs, strings = tables.strings;
  var previousWord = false;
  for (var index = start; index < end; index++) {
    var kind = BLOGBUILD_CLASS[texts.charCodeAt(index)], at = index - start;
    if (kind === 99) {   // c
      var code = folded.charCodeAt(index), list = singles[code];
      if (list === undefined) singles[code] = [post, 1, at];
      else {
        var last = list.length - 3;
        if (list[last] !== post) list.push(post, 1, at);
        else if (list[last + 1] < 10) list[last + 1]++;
      }
      if (index + 1 < end && BLOGBUILD_CLASS[texts.charCodeAt(index + 1)] === 99) {
        var seconds = pairs[code];
        if (seconds === undefined) seconds = pairs[code] = new Map();
        blogbuildTally(seconds, folded.charCodeAt(index + 1), post, at);
      }
      previousWord = false;
      continue;
    }
    var word = kind === 119;   // w
    if (word && !previousWord) {
      var stop = index + 1;
      while (stop < end && BLOGBUILD_CLASS[texts.charCodeAt(stop)] === 119) stop++;
      blogbuildTally(strings, "p" + folded[index], post, at);
      if (stop - index >= 2) blogbuildTally(strings, "p" + folded.slice(index, index + 2), post, at);
      blogbuildTally(strings, "w" + folded.slice(index, stop), post, at);
    }
    previousWord = word;
  }
}

var BLOGBUILD_SURROGATE = /[\ud800-\udfff]/;

// A premade post's pieces, into the tables scan() would have put them in: a CJK key of one UTF-16 unit in
// singles, of two in pairs (an astral character too: the key is the same string again when written).
function blogbuildPremade(keys, numbers, at, post, tables) {
  for (var index = 0; index < keys.length; index++) {
    var key = keys[index], hits = +numbers[at], first = +numbers[at + 1];
    at += 2;
    if (BLOGBUILD_SURROGATE.test(key)) tables.surrogates = true;
    if (key[0] === "c" && key.length === 2) {
      var list = tables.singles[key.charCodeAt(1)];
      if (list === undefined) tables.singles[key.charCodeAt(1)] = [post, hits, first];
      else list.push(post, hits, first);
      continue;
    }
    var pair = key[0] === "c" && key.length === 3, table = tables.strings, name = key;
    if (pair) {
      table = tables.pairs[key.charCodeAt(1)];
      if (table === undefined) table = tables.pairs[key.charCodeAt(1)] = new Map();
      name = key.charCodeAt(2);
    }
    var triples = table.get(name);
    if (triples === undefined) table.set(name, [post, hits, first]);
    else triples.push(post, hits, first);
  }
  return at;
}

function blogbuildByCodePoint(left, right) {
  var a = Array.from(left[0]), b = Array.from(right[0]);
  for (var index = 0; index < a.length && index < b.length; index++) {
    if (a[index] !== b[index]) return a[index].codePointAt(0) - b[index].codePointAt(0);
  }
  return a.length - b.length;
}

function blogbuildRangeParts(learn, texts, lengthsText, premadeKeys, premadeNumbers, count) {
  blogbuildLearn(learn);
  var folded = blogbuildFold(texts), lengths = lengthsText.split(",");
  var tables = { singles: new Array(65536), pairs: new Array(65536), strings: new Map(), surrogates: false };
  var premade = premadeKeys ? premadeKeys.split("\n") : [];
  var numbers = premadeNumbers ? premadeNumbers.split(",") : [];
  var made = 0, at = 0, start = 0;
  for (var post = 0; post < lengths.length; post++) {
    var length = +lengths[post];
    if (length < 0) {
      var keys = premade[made++];
      at = blogbuildPremade(keys ? keys.split(" ") : [], numbers, at, post, tables);
    } else {
      blogbuildScan(folded, texts, start, start + length, post, tables);
      start += length;
    }
  }
  var entries = [];
  for (var code = 0; code < 65536; code++) {
    if (tables.singles[code] !== undefined) entries.push(["c" + String.fromCharCode(code), tables.singles[code]]);
  }
  for (var first = 0; first < 65536; first++) {
    if (tables.pairs[first] === undefined) continue;
    tables.pairs[first].forEach(function (list, second) {
      entries.push(["c" + String.fromCharCode(first, second), list]);
    });
  }
  tables.strings.forEach(function (list, key) { entries.push([key, list]); });
  // Python orders keys by code point; UTF-16 order differs only once a key holds an astral character.
  entries.sort(tables.surrogates ? blogbuildByCodePoint
                                 : function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0; });
  var shards = new Array(count), postKeys = new Array(lengths.length);
  for (var number = 0; number < count; number++) shards[number] = [];
  for (var post2 = 0; post2 < lengths.length; post2++) postKeys[post2] = [];
  for (var entry = 0; entry < entries.length; entry++) {
    var key = entries[entry][0], triples = entries[entry][1];
    var head = key[0] === "w" ? (tables.surrogates ? Array.from(key).slice(0, 4).join("") : key.slice(0, 4)) : key;
    var shard = blogbuildFnv1a(head) % count, previous = 0;
    for (var index = 0; index < triples.length; index += 3) {
      var id = triples[index];
      postKeys[id].push(key);   // in key order: each post's keys come out sorted
      triples[index] = id - previous;   // ids as differences from the previous one
      previous = id;
    }
    shards[shard].push(key, triples);
  }
  var parts = new Array(count);
  for (var part = 0; part < count; part++) {
    var items = shards[part], text = "{", kind = "";
    for (var item = 0; item < items.length; item += 2) {
      var name = items[item];
      if (name[0] !== kind) {
        text += (kind ? "}," : "") + '"' + name[0] + '":{';
        kind = name[0];
      } else {
        text += ",";
      }
      // A piece is word or CJK characters: nothing in it that JSON escapes.
      text += '"' + name.slice(1) + '":[' + items[item + 1].join(",") + "]";
    }
    parts[part] = text + (kind ? "}}" : "}");
  }
  var out = [parts.join("\n")];
  for (var post3 = 0; post3 < lengths.length; post3++) out.push(postKeys[post3].join(" "));
  return out.join("\uffff");
}
"""

_function: Any = None   # blogbuildRangeParts in this process's isolate
_taught: set[str] = set()   # the characters whose fold and class the isolate has
_inherited: list[object] = []


def _after_fork_in_child() -> None:
    # A forked child must neither use nor free its parent's isolate (freeing it waits for a V8 thread the
    # child does not have): it keeps the handle here, unused, and makes its own when it needs one.
    global _function
    if _function is not None:
        _inherited.append(_function)
    _function = None
    _taught.clear()


os.register_at_fork(after_in_child=_after_fork_in_child)


def untaught(characters: set[str]) -> set[str]:
    """Those of characters the isolate has no fold and class for yet; they are taught with the next call."""
    new = characters - _taught
    _taught.update(new)
    return new


def range_parts(learn: str, texts: str, lengths: str, premade_keys: str, premade_numbers: str,
                count: int) -> str:
    """blogbuildRangeParts() in this process's isolate (made on first use; v8.EngineMissing without
    mini-racer). learn: the fold and class of each character untaught() returned since the last call."""
    global _function
    try:
        if _function is None:
            from ..content.v8 import new_isolate
            isolate = new_isolate("the sharded search index needs the mini-racer package (pip install mini-racer)")
            isolate.eval(_SCRIPT)
            _function = isolate.eval("blogbuildRangeParts")
        result = _function(learn, texts, lengths, premade_keys, premade_numbers, count)
    except BaseException:
        _taught.clear()   # this call's characters may not have been taught: teach every one again
        raise
    if not isinstance(result, str):
        raise TypeError(f"blogbuildRangeParts returned {type(result).__name__}, not a string")
    return result
