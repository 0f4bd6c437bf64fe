// Check TeX with KaTeX under Node, the way the site renders it (throwOnError: true).
//
//   node check_katex.mjs [--node-modules DIR] < math.json
//
// stdin:  a JSON array; each item is a TeX string (inline), or {"id": any, "tex": "\\frac{a}{b}", "display": true}.
// stdout: a JSON array, one result per item, in order:
//           {"id": <id or index>, "ok": true}
//           {"id": <id or index>, "ok": false, "error": "KaTeX parse error: ..."}
// exit:   0 when every item renders, 1 when any does not, 2 when katex or the input is missing/bad
//         (message on stderr).
// katex comes from --node-modules DIR, then NODE_PATH, then normal resolution.
// strict stays at KaTeX's default ("warn"): CJK text in math mode is a warning, not an error,
// exactly as in the browser.
import { fail, importPackage, packageFolders, readJsonInput } from './resolve_packages.mjs';

const katexModule = await importPackage('katex', packageFolders());
if (!katexModule) fail('check_katex: katex not found; pass --node-modules DIR or set NODE_PATH (npm ci in tests/node)');
const katex = katexModule.default || katexModule;

let items;
try {
  items = await readJsonInput();
} catch (error) {
  fail(`check_katex: stdin is not JSON: ${error.message}`);
}
if (!Array.isArray(items)) fail('check_katex: stdin must be a JSON array');

// KaTeX reports strict-mode warnings through console.warn; keep stdout pure JSON.
console.warn = () => {};
const results = [];
for (const [index, item] of items.entries()) {
  const id = item && typeof item === 'object' && 'id' in item ? item.id : index;
  const tex = typeof item === 'string' ? item : String(item?.tex ?? '');
  const display = Boolean(item && typeof item === 'object' && item.display);
  try {
    katex.renderToString(tex, { displayMode: display, throwOnError: true });
    results.push({ id, ok: true });
  } catch (error) {
    results.push({ id, ok: false, error: String(error?.message ?? error) });
  }
}
process.stdout.write(JSON.stringify(results) + '\n');
process.exit(results.every((result) => result.ok) ? 0 : 1);
