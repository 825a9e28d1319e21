// make_cjs.mjs OUT_DIR — the CommonJS copies compat.cjs needs, made at build time from the ES
// modules beside them in OUT_DIR (wasm/CMakeLists.txt): arbiter_wasm.cjs from Emscripten's
// arbiter_wasm.mjs (`import.meta.url` made this file's URL; compat.cjs hands over the instance) and
// compat_core.cjs from compat_core.mjs (which imports nothing; its `export`s become module.exports).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2];
const loader = readFileSync(join(dir, 'arbiter_wasm.mjs'), 'utf8');
const exported = /export default ([A-Za-z_$][\w$]*);?\s*$/.exec(loader);
if (!exported || !loader.includes('import.meta.url')) throw new Error('make_cjs: arbiter_wasm.mjs is not the loader expected');
writeFileSync(join(dir, 'arbiter_wasm.cjs'), "'use strict';\n" +
  loader.slice(0, exported.index).replaceAll('import.meta.url', "require('node:url').pathToFileURL(__filename).href") + `module.exports = ${exported[1]};\n`);

const core = readFileSync(join(dir, 'compat_core.mjs'), 'utf8');
if (/^import /m.test(core)) throw new Error('make_cjs: compat_core.mjs must import nothing');
const names = [];
const body = core.replace(/^export (const|function|class) ([A-Za-z_$][\w$]*)/gm, (_, kind, name) => {
  names.push(name);
  return `${kind} ${name}`;
});
writeFileSync(join(dir, 'compat_core.cjs'), "'use strict';\n" + body + `\nmodule.exports = { ${names.join(', ')} };\n`);
