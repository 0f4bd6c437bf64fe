/* blogbuild default theme: client-side search, Chinese included, no dictionary.
   A query is split on spaces into terms; a post matches when every term matches. A term matches
   when all its pieces occur in the title, the terms (tags, categories, series) or the content:
   CJK text is cut into overlapping two-character pieces (a single character stays one piece),
   Latin words match as case-insensitive prefixes of words. Title hits rank first.
   Two indexes, one script (the template's data-index names the file): search_index: sharded (opt-in)
   reads search/meta.json (titles, dates, links, terms) when the box gets focus, then per query
   only the shards of its pieces, then the text chunks around each shown result's first hit (search_index.py
   writes them); search_index: whole reads index.json, every post's text, at once. searchSharded() gives
   exactly what search() gives over the whole text (tests/test_search_index.py).
   Results are built with DOM nodes and textContent only: nothing from the index becomes HTML.
   Under Node (tests) the pure functions are exported and nothing touches the DOM. */
(function () {
  "use strict";

  var CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
  var WORD = /[\p{L}\p{N}_]/u;
  var MAX_RESULTS = 50;
  var SNIPPET_BEFORE = 30;
  var SNIPPET_LENGTH = 160;
  var FOLD_SLOW = /[\u03a3\ud800-\udfff]/;   // capital sigma, surrogates: fold() character by character

  /** The text lowercased and NFKC-folded (full-width Latin becomes ASCII), with a map from each
      folded position back to the original, so hits found in the folded text can be marked. */
  function fold(text) {
    // Most text is already NFKC: then each character folds to its own lowercase, and unless a capital
    // sigma (whose lowercase depends on its neighbours in toLowerCase) or a character that lowercases
    // to two is present, the whole string lowercased is the same fold in one call.
    if (!FOLD_SLOW.test(text) && text.normalize("NFKC") === text) {
      var lower = text.toLowerCase();
      if (lower.length === text.length) {
        var identity = new Array(text.length + 1);
        for (var position = 0; position <= text.length; position++) identity[position] = position;
        return { text: lower, map: identity };
      }
    }
    var folded = "";
    var map = [];
    var index = 0;
    for (var character of text) {
      var piece = character.normalize("NFKC").toLowerCase();
      for (var unit = 0; unit < piece.length; unit++) map.push(index);
      folded += piece;
      index += character.length;
    }
    map.push(text.length);
    return { text: folded, map: map };
  }

  function isWordCharacter(character) {
    return WORD.test(character) && !CJK.test(character);
  }

  /** The pieces of one query term: CJK bigrams (or the lone character) and Latin words. */
  function pieces(term) {
    var result = [];
    var characters = Array.from(fold(term).text);
    var position = 0;
    while (position < characters.length) {
      var character = characters[position];
      if (CJK.test(character)) {
        var run = [];
        while (position < characters.length && CJK.test(characters[position])) run.push(characters[position++]);
        if (run.length === 1) result.push({ text: run[0], word: false });
        for (var start = 0; start + 1 < run.length; start++) {
          result.push({ text: run[start] + run[start + 1], word: false });
        }
      } else if (isWordCharacter(character)) {
        var word = "";
        while (position < characters.length && isWordCharacter(characters[position])) word += characters[position++];
        result.push({ text: word, word: true });
      } else {
        position++;   // punctuation and symbols separate pieces and match nothing themselves
      }
    }
    return result;
  }

  /** Parse a query into terms (split on spaces), each with its pieces; empty terms dropped. */
  function parseQuery(query) {
    return String(query || "").split(/\s+/u).map(function (term) {
      return { text: term, pieces: pieces(term) };
    }).filter(function (term) { return term.pieces.length > 0; });
  }

  /** Start positions of a piece in folded text; a word piece only at the start of a word. */
  function occurrences(folded, piece, limit) {
    var found = [];
    var from = 0;
    while (found.length < (limit || Infinity)) {
      var at = folded.indexOf(piece.text, from);
      if (at < 0) break;
      var before = at > 0 ? folded[at - 1] : "";
      if (!piece.word || !before || !isWordCharacter(before)) found.push(at);
      from = at + 1;
    }
    return found;
  }

  function contains(folded, piece) {
    return occurrences(folded, piece, 1).length > 0;
  }

  /** The folded fields of one index entry, computed once. */
  function prepare(entry) {
    var terms = [].concat(entry.tags || [], entry.categories || [], entry.series || []).join(" · ");
    return {
      entry: entry,
      title: fold(String(entry.title || "")).text,
      terms: fold(terms).text,
      content: fold(String(entry.content || entry.summary || "")).text,
    };
  }

  /** A score for a prepared entry, 0 when some term does not match. */
  function score(prepared, terms) {
    var total = 0;
    for (var index = 0; index < terms.length; index++) {
      var termPieces = terms[index].pieces;
      var inTitle = termPieces.every(function (piece) { return contains(prepared.title, piece); });
      var inTerms = termPieces.every(function (piece) { return contains(prepared.terms, piece); });
      var matches = termPieces.every(function (piece) {
        return contains(prepared.title, piece) || contains(prepared.terms, piece) || contains(prepared.content, piece);
      });
      if (!matches) return 0;
      var hits = 0;
      termPieces.forEach(function (piece) { hits += occurrences(prepared.content, piece, 10).length; });
      total += (inTitle ? 1000 : 0) + (inTerms ? 100 : 0) + 1 + Math.min(hits, 50);
    }
    return total;
  }

  /** Matching entries, best first (ties keep the index order: newest first). */
  function search(prepared, query) {
    var terms = parseQuery(query);
    if (terms.length === 0) return [];
    var scored = [];
    prepared.forEach(function (item, order) {
      var value = score(item, terms);
      if (value > 0) scored.push({ item: item, score: value, order: order });
    });
    scored.sort(function (a, b) { return b.score - a.score || a.order - b.order; });
    return scored.map(function (result) { return result.item; });
  }

  /** Hit intervals [start, end) in the original text for every piece of every term, merged.
      A word hit extends to the end of its word. Hits starting before minimum are left out. */
  function hitRanges(text, terms, minimum) {
    var folded = fold(text);
    var ranges = [];
    terms.forEach(function (term) {
      term.pieces.forEach(function (piece) {
        occurrences(folded.text, piece).forEach(function (start) {
          if (folded.map[start] < (minimum || 0)) return;   // before the first hit: cut out of its word
          var end = start + piece.text.length;
          if (piece.word) while (end < folded.text.length && isWordCharacter(folded.text[end])) end++;
          ranges.push([folded.map[start], folded.map[end]]);
        });
      });
    });
    ranges.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    var merged = [];
    ranges.forEach(function (range) {
      var last = merged[merged.length - 1];
      if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
      else merged.push([range[0], range[1]]);
    });
    return merged;
  }

  /** A window of text around the first hit: {start, end, ranges} with ranges inside the window.
      text may be a part of the post's text: the part starting at UTF-16 offset `offset` of a text
      `total` units long, whose first hit is at `first` (from the index); positions are the whole text's. */
  function snippet(text, terms, offset, total, first) {
    offset = offset || 0;
    if (total === undefined) total = offset + text.length;
    var ranges = hitRanges(text, terms, (first || offset) - offset).map(function (range) {
      return [range[0] + offset, range[1] + offset];
    });
    first = ranges.length ? ranges[0][0] : 0;
    var at = function (index) { return text[index - offset]; };
    var start = Math.max(0, first - SNIPPET_BEFORE);
    var end = Math.min(total, start + SNIPPET_LENGTH);
    // Do not start in the middle of a Latin word (CJK can be cut anywhere).
    var skipped = 0;
    while (start > 0 && start < first && skipped < 15 && isWordCharacter(at(start - 1)) && isWordCharacter(at(start))) {
      start++;
      skipped++;
    }
    // Never cut a surrogate pair in half.
    if (start > 0 && /[\uDC00-\uDFFF]/.test(at(start))) start--;
    if (end < total && /[\uDC00-\uDFFF]/.test(at(end))) end++;
    var inside = ranges.filter(function (range) { return range[1] > start && range[0] < end; })
      .map(function (range) { return [Math.max(range[0], start), Math.min(range[1], end)]; });
    return { start: start, end: end, ranges: inside };
  }

  /** Parts of text between start and end as [{text, hit}], for building text nodes and <mark>s. */
  function segments(text, start, end, ranges) {
    var parts = [];
    var position = start;
    ranges.forEach(function (range) {
      if (range[0] > position) parts.push({ text: text.slice(position, range[0]), hit: false });
      parts.push({ text: text.slice(range[0], range[1]), hit: true });
      position = range[1];
    });
    if (position < end) parts.push({ text: text.slice(position, end), hit: false });
    return parts;
  }

  // ---- the sharded index (search_index.py writes it) -------------------------------------------
  // search/meta.json lists the posts without their text; a query reads the shards of its pieces. A shard
  // is a list of parts, one per range of meta.range posts counted from the oldest (so an edit re-encodes
  // only its range's parts), where each piece maps to [local id delta, occurrences (at most 10), first
  // UTF-16 offset] triples, a local id being a post's place in its range, oldest first.

  /** 32-bit FNV-1a over UTF-16 code units: the shard of a key, as search_index.fnv1a computes it. */
  function fnv1a(text) {
    var value = 0x811c9dc5;
    for (var index = 0; index < text.length; index++) {
      value ^= text.charCodeAt(index);
      value = Math.imul(value, 0x01000193) >>> 0;
    }
    return value;
  }

  /** The key of a piece in the shards: a CJK piece itself, a short word's prefix total, or a longer
      word's first three characters (the shard then lists whole words, kept when the piece prefixes them). */
  function pieceKey(piece) {
    if (!piece.word) return "c" + piece.text;
    var characters = Array.from(piece.text);
    return characters.length <= 2 ? "p" + piece.text : "w" + characters.slice(0, 3).join("");
  }

  function shardOf(piece, count) {
    return fnv1a(pieceKey(piece)) % count;
  }

  /** The posts of meta.json (one array per field), each with its folded title and terms (as prepare()
      folds them); prepared.titles and prepared.terms: every post's folded field in one string, so a
      piece is looked for in all titles with one indexOf scan (see idsWith). */
  function prepareMeta(meta) {
    var posts = meta.posts;
    var prepared = posts.title.map(function (title, id) {
      var entry = { id: id, title: title, date: posts.date[id], url: posts.url[id], tags: posts.tags[id],
                    categories: posts.categories[id], series: posts.series[id], length: posts.length[id] };
      var item = prepare(entry);
      item.content = null;
      return item;
    });
    prepared.titles = joined(prepared, "title");
    prepared.terms = joined(prepared, "terms");
    return prepared;
  }

  // A line feed joins the fields: it is neither CJK nor a word character, so no piece spans two posts and
  // a word at a field's start is still a word start.
  function joined(prepared, field) {
    var starts = new Int32Array(prepared.length);
    var parts = prepared.map(function (item, id) {
      starts[id] = id === 0 ? 0 : starts[id - 1] + prepared[id - 1][field].length + 1;
      return item[field];
    });
    return { text: parts.join("\n"), starts: starts, cache: new Map() };
  }

  /** The ids of the posts whose field (a joined() string) contains the piece, as contains() decides. */
  function idsWith(field, piece) {
    var key = (piece.word ? "w" : "c") + piece.text;
    var cached = field.cache.get(key);
    if (cached) return cached;
    var ids = new Set();
    var text = field.text;
    var at = text.indexOf(piece.text);
    while (at >= 0) {
      if (!piece.word || at === 0 || !isWordCharacter(text[at - 1])) {
        var low = 0, high = field.starts.length - 1;
        while (low < high) {
          var middle = (low + high + 1) >> 1;
          if (field.starts[middle] <= at) low = middle; else high = middle - 1;
        }
        ids.add(low);
      }
      at = text.indexOf(piece.text, at + 1);
    }
    field.cache.set(key, ids);
    return ids;
  }

  /** The layout of the shards in meta.json: how many shards, posts per range, posts. */
  function layoutOf(meta) {
    return { count: meta.shards.length / 4, range: meta.range, posts: meta.posts.title.length };
  }

  /** Add a range's triples to found (post id -> [occurrences, first]); base: the id of local id 0. */
  function addTriples(found, triples, base) {
    var local = 0;
    for (var index = 0; index < triples.length; index += 3) {
      local += triples[index];
      var id = base - local;
      var seen = found.get(id);
      if (seen) found.set(id, [Math.min(10, seen[0] + triples[index + 1]), Math.min(seen[1], triples[index + 2])]);
      else found.set(id, [triples[index + 1], triples[index + 2]]);
    }
  }

  /** Post id -> [occurrences capped at 10, first offset] of one piece, read from each range's part of
      its shard. */
  function piecePostings(piece, shards, layout) {
    var parts = shards[shardOf(piece, layout.count)] || [];
    var found = new Map();
    var key = pieceKey(piece);
    for (var range = 0; range < parts.length; range++) {
      var shard = parts[range];
      var base = layout.posts - 1 - range * layout.range;
      if (key[0] !== "w") {
        addTriples(found, ((shard[key[0]] || {})[key.slice(1)]) || [], base);
        continue;
      }
      var words = shard.w || {};
      Object.keys(words).forEach(function (word) {
        if (word.startsWith(piece.text)) addTriples(found, words[word], base);
      });
    }
    return found;
  }

  /** search() over the sharded index: the same posts in the same order, each with the offset of its
      first content hit (undefined when only the title or terms matched). shards: number -> parsed shard,
      holding at least every shard the query's pieces need (shardsFor); layout: layoutOf(meta). Only posts holding the first
      piece somewhere are scored: the work follows the hits, not the number of posts. */
  function searchSharded(prepared, shards, layout, query) {
    var terms = parseQuery(query);
    if (terms.length === 0) return [];
    var lookups = [];   // per term, per piece: {title, terms, content}
    terms.forEach(function (term) {
      lookups.push(term.pieces.map(function (piece) {
        return { title: idsWith(prepared.titles, piece), terms: idsWith(prepared.terms, piece),
                 content: piecePostings(piece, shards, layout) };
      }));
    });
    var first = lookups[0][0];
    var candidates = new Set(first.title);
    first.terms.forEach(function (id) { candidates.add(id); });
    first.content.forEach(function (value, id) { candidates.add(id); });
    var scored = [];
    candidates.forEach(function (id) {
      var total = 0;
      var offset;
      for (var index = 0; index < lookups.length && total >= 0; index++) {
        var hits = 0;
        var inTitle = true, inTerms = true, matches = true;
        lookups[index].forEach(function (lookup) {
          var title = lookup.title.has(id), termsHit = lookup.terms.has(id), found = lookup.content.get(id);
          inTitle = inTitle && title;
          inTerms = inTerms && termsHit;
          matches = matches && (title || termsHit || Boolean(found));
          if (found) {
            hits += found[0];
            offset = offset === undefined ? found[1] : Math.min(offset, found[1]);
          }
        });
        total = matches ? total + (inTitle ? 1000 : 0) + (inTerms ? 100 : 0) + 1 + Math.min(hits, 50) : -1;
      }
      if (total > 0) scored.push({ item: prepared[id], score: total, order: id, first: offset });
    });
    scored.sort(function (a, b) { return b.score - a.score || a.order - b.order; });
    return scored;
  }

  /** The shard numbers a query needs. */
  function shardsFor(query, layout) {
    var numbers = [];
    parseQuery(query).forEach(function (term) {
      term.pieces.forEach(function (piece) {
        var number = shardOf(piece, layout.count);
        if (numbers.indexOf(number) < 0) numbers.push(number);
      });
    });
    return numbers;
  }

  /** The chunk numbers holding enough text around a result's first hit for snippet():
      [first chunk, last chunk]. */
  function chunksFor(result, terms, chunk) {
    var first = result.first || 0;
    var longest = 0;
    terms.forEach(function (term) {
      term.pieces.forEach(function (piece) { longest = Math.max(longest, piece.text.length); });
    });
    var low = Math.max(0, first - SNIPPET_BEFORE - 2);
    var high = Math.min(result.item.entry.length - 1, Math.max(0, first - SNIPPET_BEFORE) + SNIPPET_LENGTH + 2 * longest + 4);
    return [Math.floor(low / chunk), Math.max(0, Math.floor(high / chunk))];
  }

  var api = { fold: fold, pieces: pieces, parseQuery: parseQuery, prepare: prepare, score: score,
              search: search, hitRanges: hitRanges, snippet: snippet, segments: segments,
              fnv1a: fnv1a, pieceKey: pieceKey, prepareMeta: prepareMeta, layoutOf: layoutOf, searchSharded: searchSharded,
              shardsFor: shardsFor, chunksFor: chunksFor, isWordCharacter: isWordCharacter,
              isCjk: function (character) { return CJK.test(character); } };

  if (typeof module !== "undefined" && module.exports) {
    module.exports = api;
  }
  if (typeof document === "undefined") return;

  // ---- the page ---------------------------------------------------------------------------------

  var script = document.currentScript;
  var indexUrl = new URL((script && script.getAttribute("data-index")) || "/search/meta.json", window.location.href);
  var sharded = /\/meta\.json$/.test(indexUrl.pathname);   // else index.json, the whole text
  var chinese = /^zh/i.test(document.documentElement.lang || "");
  var words = chinese
    ? { loading: "正在加载索引…", failed: "搜索索引加载失败。", none: "没有找到相关文章。",
        found: function (count) { return "找到 " + count + " 篇文章" + (count > MAX_RESULTS ? "，显示前 " + MAX_RESULTS + " 篇" : "") + "。"; } }
    : { loading: "Loading the index…", failed: "The search index could not be loaded.", none: "No posts found.",
        found: function (count) { return count + (count === 1 ? " post" : " posts") + " found" + (count > MAX_RESULTS ? ", showing the first " + MAX_RESULTS : "") + "."; } };
  var FIRST_SCREEN = 10;   // results whose snippets load with the results; the rest when scrolled to

  var meta = null;
  var layout = null;
  var prepared = null;
  var loadingIndex = null;
  var shards = {};
  var loadingShards = {};
  var chunkFiles = {};

  function getJson(url) {
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    });
  }

  /** meta.json (sharded) or index.json (whole), prepared once. */
  function loadIndex() {
    if (!loadingIndex) {
      loadingIndex = getJson(indexUrl.href).then(function (loaded) {
        if (sharded) {
          meta = loaded;
          layout = layoutOf(loaded);
          prepared = prepareMeta(loaded);
        } else {
          prepared = loaded.map(prepare);
        }
        document.dispatchEvent(new CustomEvent("blogbuild:search-ready", { detail: { posts: prepared.length } }));
      });
      loadingIndex.catch(function () { loadingIndex = null; });
    }
    return loadingIndex;
  }

  /** The shards a query needs (none for the whole index); meta.shards: four characters of each shard's
      hash, so a changed shard is a new URL. */
  function loadShards(query) {
    if (!sharded) return Promise.resolve();
    return Promise.all(shardsFor(query, layout).map(function (number) {
      if (!loadingShards[number]) {
        var url = new URL("s-" + number + ".json?v=" + meta.shards.substr(4 * number, 4), indexUrl);
        loadingShards[number] = getJson(url.href).then(function (shard) { shards[number] = shard; });
        loadingShards[number].catch(function () { delete loadingShards[number]; });
      }
      return loadingShards[number];
    }));
  }

  /** Results of a query, best first: [{item, first}] (first: the offset of the first content hit, sharded). */
  function find(query) {
    if (sharded) return searchSharded(prepared, shards, layout, query);
    return search(prepared, query).map(function (item) { return { item: item }; });
  }

  /** The text of chunks [low, high] of a post, and the offset it starts at. */
  function loadText(entry, low, high) {
    var folder = entry.url.replace(/^\/+|\/+$/g, "");
    var parts = [];
    for (var number = low; number <= high; number++) {
      var url = new URL("text/" + (folder ? folder + "/" : "") + number + ".json?v=" + meta.text, indexUrl).href;
      if (!chunkFiles[url]) chunkFiles[url] = getJson(url);
      parts.push(chunkFiles[url]);
    }
    return Promise.all(parts).then(function (texts) { return { text: texts.join(""), offset: low * meta.chunk }; });
  }

  function appendParts(parent, text, start, end, ranges, offset) {
    offset = offset || 0;
    var shifted = ranges.map(function (range) { return [range[0] - offset, range[1] - offset]; });
    segments(text, start - offset, end - offset, shifted).forEach(function (part) {
      if (part.hit) {
        var mark = document.createElement("mark");
        mark.textContent = part.text;
        parent.appendChild(mark);
      } else {
        parent.appendChild(document.createTextNode(part.text));
      }
    });
  }

  function showSnippet(paragraph, text, offset, total, window_) {
    paragraph.textContent = "";
    if (window_.start > 0) paragraph.appendChild(document.createTextNode("…"));
    appendParts(paragraph, text, window_.start, window_.end, window_.ranges, offset);
    if (window_.end < total) paragraph.appendChild(document.createTextNode("…"));
  }

  /** Fill a result's snippet paragraph: from the chunks around its first hit, or the whole index's text. */
  function fillSnippet(paragraph, result, terms) {
    var entry = result.item.entry;
    if (!sharded) {
      var content = String(entry.content || entry.summary || "");
      showSnippet(paragraph, content, 0, content.length, snippet(content, terms));
      return Promise.resolve();
    }
    var span = chunksFor(result, terms, meta.chunk);
    return loadText(entry, span[0], span[1]).then(function (part) {
      showSnippet(paragraph, part.text, part.offset, entry.length,
                  snippet(part.text, terms, part.offset, entry.length, result.first));
    });
  }

  var observer = typeof IntersectionObserver === "function" ? new IntersectionObserver(function (seen) {
    seen.forEach(function (item) {
      if (!item.isIntersecting || !item.target.pendingSnippet) return;
      var pending = item.target.pendingSnippet;
      item.target.pendingSnippet = null;
      observer.unobserve(item.target);
      pending().catch(function () { /* the result stays without its snippet */ });
    });
  }, { rootMargin: "200px" }) : null;

  // Links keep only the path, so the results also work on a preview server or another host name: the
  // meta file gives the site's base path, index.json absolute permalinks for the configured base_url.
  function localLink(entry) {
    if (sharded) return meta.base + entry.url.replace(/^\/+/, "");
    try {
      var url = new URL(String(entry.permalink || ""), window.location.href);
      return url.pathname + url.search + url.hash;
    } catch (error) {
      return "#";
    }
  }

  function resultElement(result, terms) {
    var entry = result.item.entry;
    var element = document.createElement("li");
    element.className = "search-result";
    var heading = document.createElement("h2");
    heading.className = "search-result-title";
    var link = document.createElement("a");
    link.href = localLink(entry);
    var title = String(entry.title || "");
    appendParts(link, title, 0, title.length, hitRanges(title, terms));
    heading.appendChild(link);
    element.appendChild(heading);

    var metaLine = document.createElement("p");
    metaLine.className = "post-meta";
    var date = String(entry.date || "").slice(0, 10);
    if (date) {
      var time = document.createElement("time");
      time.dateTime = String(entry.date);
      time.textContent = date;
      metaLine.appendChild(time);
    }
    var tags = [].concat(entry.tags || []);
    if (tags.length) metaLine.appendChild(document.createTextNode((date ? " · " : "") + tags.join(", ")));
    element.appendChild(metaLine);
    return element;
  }

  /** Show the results; resolves when the first screen's snippets are in. */
  function renderResults(list, status, query) {
    var terms = parseQuery(query);
    list.textContent = "";
    if (terms.length === 0) {
      status.textContent = "";
      list.setAttribute("data-state", "empty");
      return Promise.resolve();
    }
    var results = find(query);
    status.textContent = results.length ? words.found(results.length) : words.none;
    var waiting = [];
    results.slice(0, MAX_RESULTS).forEach(function (result, index) {
      var element = resultElement(result, terms);
      var paragraph = document.createElement("p");
      paragraph.className = "search-snippet";
      element.appendChild(paragraph);
      list.appendChild(element);
      var load = function () { return fillSnippet(paragraph, result, terms); };
      if (index < FIRST_SCREEN || !observer || !sharded) waiting.push(load().catch(function () {}));
      else { element.pendingSnippet = load; observer.observe(element); }
    });
    return Promise.all(waiting).then(function () {
      list.setAttribute("data-state", "done");
      document.dispatchEvent(new CustomEvent("blogbuild:search", { detail: { query: query, count: results.length } }));
    });
  }

  function start() {
    var input = document.getElementById("search-input");
    var list = document.getElementById("search-results");
    var status = document.getElementById("search-status");
    if (!input || !list || !status) return;
    var form = input.form;
    var timer = 0;

    function run() {
      var query = input.value;
      var url = new URL(window.location.href);
      if (query.trim()) url.searchParams.set("q", query); else url.searchParams.delete("q");
      window.history.replaceState(null, "", url.pathname + url.search + url.hash);
      if (!query.trim()) { renderResults(list, status, ""); return; }
      if (!prepared) status.textContent = words.loading;
      loadIndex().then(function () { return loadShards(query); }).then(
        function () { if (input.value === query) return renderResults(list, status, query); },
        function () { status.textContent = words.failed; list.setAttribute("data-state", "error"); });
    }

    if (form) form.addEventListener("submit", function (event) { event.preventDefault(); run(); });
    if (sharded) input.addEventListener("focus", function () { loadIndex().catch(function () {}); });
    input.addEventListener("input", function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(run, 120);
    });
    var initial = new URLSearchParams(window.location.search).get("q");
    if (initial) {
      input.value = initial;
      run();
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
