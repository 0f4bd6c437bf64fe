/* blogbuild default theme: client-side search over /index.json, Chinese included, no dictionary.
   A query is split on spaces into terms; a post matches when every term matches. A term matches
   when all its pieces occur in the title, the terms (tags, categories, series) or the content:
   CJK text is cut into overlapping two-character pieces (a single character stays one piece),
   Latin words match as case-insensitive prefixes of words. Title hits rank first.
   Results are built with DOM nodes and textContent only: nothing from the index becomes HTML.
   Under Node (tests) the pure functions are exported and nothing touches the DOM. */
(function () {
  "use strict";

  var CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
  var WORD = /[\p{L}\p{N}_]/u;
  var MAX_RESULTS = 50;
  var SNIPPET_BEFORE = 30;
  var SNIPPET_LENGTH = 160;

  /** The text lowercased and NFKC-folded (full-width Latin becomes ASCII), with a map from each
      folded position back to the original, so hits found in the folded text can be marked. */
  function fold(text) {
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
      A word hit extends to the end of its word. */
  function hitRanges(text, terms) {
    var folded = fold(text);
    var ranges = [];
    terms.forEach(function (term) {
      term.pieces.forEach(function (piece) {
        occurrences(folded.text, piece).forEach(function (start) {
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

  /** A window of text around the first hit: {start, end, ranges} with ranges inside the window. */
  function snippet(text, terms) {
    var ranges = hitRanges(text, terms);
    var first = ranges.length ? ranges[0][0] : 0;
    var start = Math.max(0, first - SNIPPET_BEFORE);
    var end = Math.min(text.length, start + SNIPPET_LENGTH);
    // Do not start in the middle of a Latin word (CJK can be cut anywhere).
    var skipped = 0;
    while (start > 0 && start < first && skipped < 15 && isWordCharacter(text[start - 1]) && isWordCharacter(text[start])) {
      start++;
      skipped++;
    }
    // Never cut a surrogate pair in half.
    if (start > 0 && /[\uDC00-\uDFFF]/.test(text[start])) start--;
    if (end < text.length && /[\uDC00-\uDFFF]/.test(text[end])) end++;
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

  var api = { fold: fold, pieces: pieces, parseQuery: parseQuery, prepare: prepare, score: score,
              search: search, hitRanges: hitRanges, snippet: snippet, segments: segments };

  if (typeof module !== "undefined" && module.exports) {
    module.exports = api;
  }
  if (typeof document === "undefined") return;

  // ---- the page ---------------------------------------------------------------------------------

  var script = document.currentScript;
  var indexUrl = (script && script.getAttribute("data-index")) || "/index.json";
  var chinese = /^zh/i.test(document.documentElement.lang || "");
  var words = chinese
    ? { loading: "正在加载索引…", failed: "搜索索引加载失败。", none: "没有找到相关文章。",
        found: function (count) { return "找到 " + count + " 篇文章" + (count > MAX_RESULTS ? "，显示前 " + MAX_RESULTS + " 篇" : "") + "。"; } }
    : { loading: "Loading the index…", failed: "The search index could not be loaded.", none: "No posts found.",
        found: function (count) { return count + (count === 1 ? " post" : " posts") + " found" + (count > MAX_RESULTS ? ", showing the first " + MAX_RESULTS : "") + "."; } };

  var prepared = null;
  var loading = null;

  function loadIndex() {
    if (!loading) {
      loading = fetch(indexUrl, { credentials: "same-origin" })
        .then(function (response) {
          if (!response.ok) throw new Error("HTTP " + response.status);
          return response.json();
        })
        .then(function (entries) { prepared = entries.map(prepare); return prepared; });
    }
    return loading;
  }

  function appendParts(parent, text, start, end, ranges) {
    segments(text, start, end, ranges).forEach(function (part) {
      if (part.hit) {
        var mark = document.createElement("mark");
        mark.textContent = part.text;
        parent.appendChild(mark);
      } else {
        parent.appendChild(document.createTextNode(part.text));
      }
    });
  }

  // Index permalinks are absolute for the configured base_url; links keep only the path, so the
  // results also work on a preview server or another host name.
  function localLink(permalink) {
    try {
      var url = new URL(permalink, window.location.href);
      return url.pathname + url.search + url.hash;
    } catch (error) {
      return "#";
    }
  }

  function renderResults(list, status, query) {
    var terms = parseQuery(query);
    list.textContent = "";
    if (terms.length === 0) {
      status.textContent = "";
      list.setAttribute("data-state", "empty");
      return;
    }
    var results = search(prepared, query);
    status.textContent = results.length ? words.found(results.length) : words.none;
    results.slice(0, MAX_RESULTS).forEach(function (item) {
      var entry = item.entry;
      var element = document.createElement("li");
      element.className = "search-result";
      var heading = document.createElement("h2");
      heading.className = "search-result-title";
      var link = document.createElement("a");
      link.href = localLink(String(entry.permalink || ""));
      var title = String(entry.title || "");
      appendParts(link, title, 0, title.length, hitRanges(title, terms));
      heading.appendChild(link);
      element.appendChild(heading);

      var meta = document.createElement("p");
      meta.className = "post-meta";
      var date = String(entry.date || "").slice(0, 10);
      if (date) {
        var time = document.createElement("time");
        time.dateTime = String(entry.date);
        time.textContent = date;
        meta.appendChild(time);
      }
      var tags = [].concat(entry.tags || []);
      if (tags.length) meta.appendChild(document.createTextNode((date ? " · " : "") + tags.join(", ")));
      element.appendChild(meta);

      var content = String(entry.content || entry.summary || "");
      var window_ = snippet(content, terms);
      var paragraph = document.createElement("p");
      paragraph.className = "search-snippet";
      if (window_.start > 0) paragraph.appendChild(document.createTextNode("…"));
      appendParts(paragraph, content, window_.start, window_.end, window_.ranges);
      if (window_.end < content.length) paragraph.appendChild(document.createTextNode("…"));
      element.appendChild(paragraph);
      list.appendChild(element);
    });
    list.setAttribute("data-state", "done");
    document.dispatchEvent(new CustomEvent("blogbuild:search", { detail: { query: query, count: results.length } }));
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
      loadIndex().then(
        function () { if (input.value === query) renderResults(list, status, query); },
        function () { status.textContent = words.failed; list.setAttribute("data-state", "error"); });
    }

    if (form) form.addEventListener("submit", function (event) { event.preventDefault(); run(); });
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
