import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { ROOT, sources } from './helpers';

// Pages make HTML one way: the `html` tagged template (packages/http/src/template.ts), which
// escapes every value put into it. This reads the source of every page module and fails on
// markup made any other way: the deprecated `esc`, or an HTML tag written in a plain string or
// an untagged template literal (where a value goes in unescaped unless someone remembered).

/** The template module itself writes the document's markup around the values it escapes. */
const ALLOWED = ['packages/http/src/template.ts'];

/** An HTML element's tag, opening or closing (a placeholder such as "Bearer <key>" in a JSON message is not one). */
const HTML_TAG =
  /<\/?(a|abbr|article|aside|b|body|br|button|caption|code|dd|details|div|dl|dt|em|fieldset|footer|form|h[1-6]|head|header|hr|html|i|img|input|label|legend|li|link|main|meta|nav|ol|optgroup|option|p|pre|script|section|select|small|span|strong|style|summary|table|tbody|td|textarea|th|thead|time|title|tr|u|ul)\b[^>]*>/i;

const pageModules = [
  ...readdirSync(join(ROOT, 'services')).flatMap((s) => sources(join(ROOT, 'services', s, 'src'))),
  join(ROOT, 'packages/oauth/src/pages.ts'),
  join(ROOT, 'packages/http/src/html.ts'),
  join(ROOT, 'packages/http/src/api-reference.ts'),
]
  .map((path) => relative(ROOT, path))
  .filter((path) => !ALLOWED.includes(path));

/** Where a file makes markup outside the template, as "path:line what". */
export function markupOutsideTemplate(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => found.push(`${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${what}`);
  const isHtmlTag = (node: ts.Node) => ts.isTaggedTemplateExpression(node) && node.tag.getText() === 'html';
  const visit = (node: ts.Node) => {
    if (ts.isImportSpecifier(node) && (node.propertyName ?? node.name).text === 'esc') at(node, 'imports esc');
    if (ts.isCallExpression(node) && node.expression.getText() === 'esc') at(node, 'calls esc(');
    if (ts.isStringLiteral(node) && HTML_TAG.test(node.text)) at(node, `a string with markup: ${node.text.slice(0, 60)}`);
    const template = ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node);
    if (template && !isHtmlTag(node.parent)) {
      const raw = node.getText();
      if (HTML_TAG.test(raw)) at(node, `an untagged template with markup: ${raw.slice(0, 60)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('page modules make HTML only with the html template', () => {
  it('has the page modules to check', () => {
    expect(pageModules).toEqual(
      expect.arrayContaining([
        'services/pro-desk/src/key-page.ts',
        'services/pro-desk/src/sign-up-page.ts',
        'packages/oauth/src/pages.ts',
        'packages/http/src/html.ts',
      ]),
    );
  });

  it('has no esc, and no markup in a plain string or an untagged template', () => {
    expect(pageModules.flatMap((path) => markupOutsideTemplate(path, readFileSync(join(ROOT, path), 'utf8')))).toEqual([]);
  });

  it('catches each way of making markup around the template', () => {
    const probes = [
      "import { esc } from '@frontdesk/http';",
      'const a = (n: string) => `<p>${n}</p>`;',
      "const b = '<strong>' + name + '</strong>';",
      'const c = `<br>`;',
      'const d = esc(name);',
      'const e = other`<li>${x}</li>`;',
    ];
    for (const probe of probes) expect(markupOutsideTemplate('probe.ts', probe).length).toBeGreaterThan(0);
    const fine = [
      'const f = html`<p>${n}</p>`;',
      'const g = `Authorization: Bearer <key>`;',
      "const h = 'a < b > c';",
      'const i = html`<ul>${xs.map((x) => html`<li>${x}</li>`)}</ul>`;',
    ];
    for (const ok of fine) expect(markupOutsideTemplate('probe.ts', ok)).toEqual([]);
  });
});
