// Check mermaid diagrams with mermaid's own parser under Node.
//
//   node check_mermaid.mjs [--node-modules DIR] < diagrams.json
//
// stdin:  a JSON array; each item is a diagram source string, or {"id": any, "text": "graph TD\n..."}.
// stdout: a JSON array, one result per item, in order:
//           {"id": <id or index>, "ok": true, "type": "flowchart-v2"}
//           {"id": <id or index>, "ok": false, "error": "Parse error on line 3: ..."}
// exit:   0 when every diagram parses, 1 when any does not, 2 when the packages or the input are missing/bad
//         (message on stderr).
// Packages (mermaid, jsdom) come from --node-modules DIR, then NODE_PATH, then normal resolution.
// jsdom supplies the window mermaid's sanitizer (DOMPurify) wants; nothing is rendered.
import { fail, importPackage, packageFolders, readJsonInput } from './resolve_packages.mjs';

const folders = packageFolders();
const jsdom = await importPackage('jsdom', folders);
if (!jsdom) fail('check_mermaid: jsdom not found; pass --node-modules DIR or set NODE_PATH (npm ci in tests/node)');
const dom = new jsdom.JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;

const mermaidModule = await importPackage('mermaid', folders);
if (!mermaidModule) fail('check_mermaid: mermaid not found; pass --node-modules DIR or set NODE_PATH (npm ci in tests/node)');
const mermaid = mermaidModule.default || mermaidModule;
mermaid.initialize({ startOnLoad: false });

let items;
try {
  items = await readJsonInput();
} catch (error) {
  fail(`check_mermaid: stdin is not JSON: ${error.message}`);
}
if (!Array.isArray(items)) fail('check_mermaid: stdin must be a JSON array');

const results = [];
for (const [index, item] of items.entries()) {
  const id = item && typeof item === 'object' && 'id' in item ? item.id : index;
  const text = typeof item === 'string' ? item : String(item?.text ?? '');
  try {
    const parsed = await mermaid.parse(text);
    results.push({ id, ok: true, type: parsed?.diagramType ?? '' });
  } catch (error) {
    results.push({ id, ok: false, error: String(error?.message ?? error) });
  }
}
process.stdout.write(JSON.stringify(results) + '\n');
process.exit(results.every((result) => result.ok) ? 0 : 1);
