import { createHash } from 'node:crypto';
import { html, htmlPage, PAGE_STYLE_HASH } from '../src';

// The pages' CSP allows the one style sheet by its hash: the text between <style> and </style>
// in every page must be exactly what was hashed, or the browser blocks every style on the page.
describe('the page style sheet', () => {
  it('is sent with exactly the text the CSP hash allows', () => {
    const page = htmlPage('Any page', html`<p>Body</p>`);
    const styles = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    expect(styles).toHaveLength(1);
    expect(`sha256-${createHash('sha256').update(styles[0]!).digest('base64')}`).toBe(PAGE_STYLE_HASH);
  });
});
