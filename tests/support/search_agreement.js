// Today's search (search() over index.json's whole text) and the sharded one (searchSharded() over
// public/search/, reading only the chunks chunksFor() names) for each query: both answers, to compare.
// Also the files the search page fetches for each query's first screen (meta, shards, chunks).
// node search_agreement.js SEARCH_JS PUBLIC QUERIES_JSON [sharded-only]
const fs = require("fs");
const path = require("path");
const search = require(process.argv[2]);
const publicDir = process.argv[3];
const queries = JSON.parse(process.argv[4]);
const shardedOnly = process.argv[5] === "sharded-only";
const FIRST_SCREEN = 10;   // search.js's
const read = file => JSON.parse(fs.readFileSync(path.join(publicDir, file), "utf8"));

const entries = shardedOnly ? [] : read("index.json");
const whole = entries.map(search.prepare);
const meta = read("search/meta.json");
const prepared = search.prepareMeta(meta);
const layout = search.layoutOf(meta);
const shards = {};

function textOf(entry, low, high, fetched) {
  const folder = entry.url.replace(/^\/+|\/+$/g, "");
  let text = "";
  for (let number = low; number <= high; number++) {
    const file = path.join("search", "text", folder, number + ".json");
    if (fetched) fetched.push(file);
    text += read(file);
  }
  return text;
}

function answer(item, content, offset, total, first, terms) {
  const window = search.snippet(content, terms, offset, total, first);
  const shifted = window.ranges.map(range => [range[0] - offset, range[1] - offset]);
  return {title: item.title, date: item.date, tags: item.tags,
          snippet: search.segments(content, window.start - offset, window.end - offset, shifted),
          before: window.start > 0, after: window.end < total};
}

const out = {};
for (const query of queries) {
  const terms = search.parseQuery(query);
  const today = shardedOnly ? null : search.search(whole, query).map(item => {
    const content = String(item.entry.content || item.entry.summary || "");
    return answer(item.entry, content, 0, content.length, undefined, terms);
  });
  const fetched = ["search/meta.json"];
  for (const number of search.shardsFor(query, layout)) {
    shards[number] = read(`search/s-${number}.json`);
    fetched.push(`search/s-${number}.json`);
  }
  const sharded = search.searchSharded(prepared, shards, layout, query).slice(0, shardedOnly ? 50 : undefined)
    .map((result, index) => {
    const [low, high] = search.chunksFor(result, terms, meta.chunk);
    const entry = result.item.entry;
    const text = textOf(entry, low, high, index < FIRST_SCREEN ? fetched : null);
    return answer(entry, text, low * meta.chunk, entry.length, result.first, terms);
  });
  for (const number of Object.keys(shards)) delete shards[number];
  out[query] = {today, sharded, fetched};
}
process.stdout.write(JSON.stringify(out));
