// make_cjs.mjs OUT_DIR — the CommonJS copies compat.cjs needs, made at build time from the ES
// modules beside them in OUT_DIR (wasm/CMakeLists.txt): arbiter_wasm.cjs from Emscripten's
// arbiter_wasm.mjs (`import.meta.url` made this file's URL; compat.cjs hands over the instance) and
// compat_core.cjs and errors.cjs from compat_core.mjs and errors.mjs (which import nothing; their
// `export`s become module.exports).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const loader = readFileSync(join(dir, 'arbiter_wasm.mjs'), 'utf8');
const exported = /export default ([A-Za-z_$][\w$]*);?\s*$/.exec(loader);
if (!exported || !loader.includes('import.meta.url')) throw new Error('make_cjs: arbiter_wasm.mjs is not the loader expected');
writeFileSync(join(dir, 'arbiter_wasm.cjs'), "'use strict';\n" +
  loader.slice(0, exported.index).replaceAll('import.meta.url', "require('node:url').pathToFileURL(__filename).href") + `module.exports = ${exported[1]};\n`);

// A module that imports nothing: its `export`s become module.exports.
function toCommonJS(name) {
  const text = readFileSync(join(dir, `${name}.mjs`), 'utf8');
  if (/^import /m.test(text)) throw new Error(`make_cjs: ${name}.mjs must import nothing`);
  const names = [];
  const body = text.replace(/^export (const|function|class) ([A-Za-z_$][\w$]*)/gm, (_, kind, exported) => {
    names.push(exported);
    return `${kind} ${exported}`;
  });
  writeFileSync(join(dir, `${name}.cjs`), "'use strict';\n" + body + `\nmodule.exports = { ${names.join(', ')} };\n`);
}
toCommonJS('compat_core');
toCommonJS('errors');
