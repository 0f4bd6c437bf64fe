// Used by check_mermaid.mjs: find npm packages outside the usual
// node_modules lookup. ES modules ignore NODE_PATH, so the folders are searched by hand:
// first `--node-modules DIR` on the command line, then every folder in NODE_PATH, then the
// ordinary resolution from this script's folder.
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The folders to search, in order. */
export function packageFolders(argv = process.argv.slice(2)) {
  const folders = [];
  const flag = argv.indexOf('--node-modules');
  if (flag !== -1 && argv[flag + 1]) folders.push(path.resolve(argv[flag + 1]));
  for (const folder of (process.env.NODE_PATH || '').split(path.delimiter)) {
    if (folder) folders.push(path.resolve(folder));
  }
  return folders;
}

function entryOf(exportsField) {
  // exports["."] may be a string or nested conditions; prefer the ESM entry.
  if (typeof exportsField === 'string') return exportsField;
  if (exportsField && typeof exportsField === 'object') {
    for (const key of ['.', 'import', 'default', 'node']) {
      if (key in exportsField) {
        const found = entryOf(exportsField[key]);
        if (found) return found;
      }
    }
  }
  return null;
}

/** Import package `name` from the first folder that has it; null when none has it. */
export async function importPackage(name, folders) {
  for (const folder of folders) {
    const packageDir = path.join(folder, name);
    const manifestPath = path.join(packageDir, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (manifest.type !== 'module' && !manifest.module && !manifest.exports) {
      // A CommonJS package (jsdom): require it from its own folder.
      return createRequire(path.join(folder, 'noop.js'))(name);
    }
    const entry = entryOf(manifest.exports) || manifest.module || manifest.main || 'index.js';
    return import(pathToFileURL(path.join(packageDir, entry)).href);
  }
  try {
    return await import(name);
  } catch {
    return null;
  }
}

/** Read all of stdin as JSON. */
export async function readJsonInput() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  return JSON.parse(text || '[]');
}

/** Print a setup error (missing package, bad input) and exit 2. */
export function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
