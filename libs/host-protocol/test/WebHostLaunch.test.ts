import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readWebHostLaunch, webHostFragment } from '../src/index.js';
import { webHostUrl } from '../src/WebHostLaunch.js';

const token = fc.stringMatching(/^[0-9a-f]{64}$/);

describe('the web host launch address', () => {
  it('reads back what it writes, whatever the workspace', () => {
    fc.assert(
      fc.property(token, fc.string(), (t, workspace) => {
        expect(readWebHostLaunch(webHostFragment({ token: t, workspace }))).toEqual({ token: t, workspace });
        const url = new URL(webHostUrl(4000, { token: t, workspace }));
        expect(url.origin).toBe('http://127.0.0.1:4000');
        expect(url.pathname).toBe('/');
        expect(url.search).toBe('');
        expect(readWebHostLaunch(url.hash)).toEqual({ token: t, workspace });
      }),
    );
  });

  it('keeps the token in the fragment only, never in the path or query a browser sends', () => {
    fc.assert(
      fc.property(token, (t) => {
        const url = new URL(webHostUrl(1, { token: t, workspace: '/w' }));
        expect(`${url.pathname}${url.search}`).not.toContain(t);
      }),
    );
  });

  it('refuses a fragment without a well-formed token, never throwing', () => {
    expect(readWebHostLaunch('')).toBeNull();
    expect(readWebHostLaunch('#token=abc')).toBeNull();
    expect(readWebHostLaunch(`#token=${'A'.repeat(64)}`)).toBeNull();
    fc.assert(fc.property(fc.string(), (text) => void readWebHostLaunch(text)));
    expect(readWebHostLaunch(`token=${'a'.repeat(64)}`)).toEqual({ token: 'a'.repeat(64), workspace: '' });
  });
});
