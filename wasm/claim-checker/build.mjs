// build.mjs OUT TEMPLATE WEB_DIR PACKAGE_DIR — writes claim-checker.html as one self-contained
// file: the template with the console's style sheet, common.js and check.js (WEB_DIR), the
// JavaScript API (PACKAGE_DIR: arbiter_wasm.mjs, index.mjs) and the wasm as base64 (its bytes
// handed to load()) put in their places.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [out, template, web, pkg] = process.argv.slice(2);
const read = (...p) => readFileSync(join(...p), 'utf8');
// The API's module and the wasm module as one: index.mjs's import of the wasm module is dropped,
// the wasm module's default export is then the only one.
// Its import of errors.mjs becomes that file's text (the class, no longer exported from there).
const errors = read(pkg, 'errors.mjs').replace(/^export class /m, 'class ');
const api = read(pkg, 'index.mjs').replace(/^import createArbiterModule from '\.\/arbiter_wasm\.mjs';$/m, '')
  .replace(/^import \{ ArbiterError \} from '\.\/errors\.mjs';$/m, () => errors);
if (api.includes("from './arbiter_wasm.mjs'")) throw new Error('index.mjs: the import of arbiter_wasm.mjs was not found');
if (api.includes("from './errors.mjs'")) throw new Error('index.mjs: the import of errors.mjs was not found');
const parts = {
  '/*@STYLE@*/': read(web, 'style.css'),
  '/*@COMMON@*/': read(web, 'common.js'),
  '/*@CHECK@*/': read(web, 'check.js'),
  '/*@MODULE@*/': read(pkg, 'arbiter_wasm.mjs') + '\n' + api,
  '/*@WASM@*/': JSON.stringify(readFileSync(join(pkg, 'arbiter_wasm.wasm')).toString('base64')),
};
let html = read(template);
for (const [marker, text] of Object.entries(parts)) {
  if (!html.includes(marker)) throw new Error(`${template}: no ${marker}`);
  if (/<\/script|<\/style/i.test(text)) throw new Error(`${marker}: the text would end its element early`);
  html = html.replace(marker, () => text);
}
writeFileSync(out, html);
