// The publish-check oracle: does the real site build accept a document?
//
//   node scripts/mdx_oracle.mjs SITE_DIR < jobs.jsonl > results.jsonl
//
// SITE_DIR is an installed copy of the real site (tests/nodetools.py site_checkout()). Each input
// line is {"id": ..., "name": "NN-slug.md", "text": ...}; each output line is
// {"id": ..., "ok": bool, "stage": "frontmatter"|"compile"|"render"|null, "message": ...,
//  "line": n|null, "column": n|null}.
//
// What it runs is the site's own toolchain from SITE_DIR/node_modules, as `docusaurus build`
// runs it for a document of `docs/`: the site's config (loadSiteConfig, so `future.v4` and the
// markdown options are the real ones), Docusaurus' front matter parser and doc front matter
// validator, Docusaurus' MDX preprocessor and processor (@mdx-js/mdx 3 with remark-directive,
// remark-gfm, admonitions, the broken-image check, ... and the site's remarkBrochureDirectives),
// then it evaluates the compiled module and renders it with react-dom/server, as the static site
// generation does. `{name}` compiles and fails only here ("name is not defined").
//
// Components the site provides globally (src/theme/MDXComponents.js and Docusaurus' own) are
// stand-ins that render their children: the oracle checks the document, not the site's React
// components.

import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const siteDir = path.resolve(process.argv[2] || '.');
const require = createRequire(path.join(siteDir, 'package.json'));

const lib = (p) => require(path.join(siteDir, 'node_modules', p));
const { loadSiteConfig } = lib('@docusaurus/core/lib/server/config.js');
const { DEFAULT_PARSE_FRONT_MATTER } = require('@docusaurus/utils');
const { validateDocFrontMatter } = lib('@docusaurus/plugin-content-docs/lib/frontMatter.js');
const { compileToJSX } = lib('@docusaurus/mdx-loader/lib/utils.js');
const React = require('react');
const { renderToString } = require('react-dom/server');
const remarkDirective = require('remark-directive');
const brochure = require(path.join(siteDir, 'src/theme/remarkBrochureDirectives.js'));

const { siteConfig } = await loadSiteConfig({ siteDir });
const docsDir = path.join(siteDir, 'docs');
const outDir = fs.mkdtempSync(path.join(siteDir, '.oracle-'));

// Names the site's MDXComponents.js provides (its own plus Docusaurus' theme-classic ones).
const PROVIDED = [
  'Head', 'details', 'Details', 'code', 'a', 'pre', 'ul', 'li', 'img', 'h1', 'h2', 'h3', 'h4',
  'h5', 'h6', 'admonition', 'mermaid', 'Columns', 'Col', 'Column', 'Highlight', 'HeroButton',
  'Callout', 'StepList', 'StepItem', 'Text', 'hero', 'stats', 'cards', 'timeline', 'quote', 'cta',
  'chapters', 'roadmap', 'badges', 'chapterheader', 'ChapterHeader', 'kpi', 'strategy',
  'alphagrid', 'panel', 'stepper', 'split', 'datatable',
];
const stub = (name) => (props) => React.createElement('div', { 'data-c': name }, props.children);
const components = Object.fromEntries(PROVIDED.map((n) => [n, stub(n)]));

// Images a document uses are turned into require() calls by Docusaurus (webpack); stand in.
globalThis.require = () => ({ default: '/img/stub.png' });

const options = {
  admonitions: true,
  remarkPlugins: [remarkDirective.default || remarkDirective, brochure],
  rehypePlugins: [],
  recmaPlugins: [],
  beforeDefaultRehypePlugins: [],
  beforeDefaultRemarkPlugins: [],
  staticDirs: siteConfig.staticDirectories.map((d) => path.resolve(siteDir, d)),
  siteDir,
  markdownConfig: siteConfig.markdown,
};

let counter = 0;

async function checkOne(job) {
  const filePath = path.join(docsDir, job.name || 'zz-oracle.md');
  const fileContent = job.text;
  let frontMatter;
  try {
    ({ frontMatter } = await siteConfig.markdown.parseFrontMatter({
      filePath,
      fileContent,
      defaultParseFrontMatter: DEFAULT_PARSE_FRONT_MATTER,
    }));
    validateDocFrontMatter(frontMatter);
  } catch (err) {
    return fail('frontmatter', err);
  }
  let compiled;
  try {
    compiled = await compileToJSX({ fileContent, filePath, frontMatter, options, compilerName: 'server' });
  } catch (err) {
    return fail('compile', err.cause || err);
  }
  try {
    counter += 1;
    const file = path.join(outDir, `doc${counter}.mjs`);
    const code = `export const frontMatter = ${JSON.stringify(frontMatter)};\n${compiled.content}`;
    fs.writeFileSync(file, code);
    const mod = await import(pathToFileURL(file).href);
    fs.unlinkSync(file);
    renderToString(React.createElement(mod.default, { components }));
  } catch (err) {
    return fail('render', err);
  }
  return { id: job.id, ok: true, stage: null, message: null, line: null, column: null };

  function fail(stage, err) {
    const place = err && (err.place || err.position);
    const start = place && (place.start || place);
    return {
      id: job.id,
      ok: false,
      stage,
      message: String((err && (err.reason || err.message)) || err).split('\n')[0],
      line: (start && start.line) || (err && err.line) || null,
      column: (start && start.column) || (err && err.column) || null,
    };
  }
}

// React prints warnings for things the build accepts; keep stdout for results only.
console.error = () => {};
console.warn = () => {};
console.log = () => {};

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
try {
  for await (const line of rl) {
    if (!line.trim()) continue;
    const job = JSON.parse(line);
    const result = await checkOne(job);
    process.stdout.write(JSON.stringify(result) + '\n');
  }
} finally {
  fs.rmSync(outDir, { recursive: true, force: true });
}
