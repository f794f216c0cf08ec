import { describe, expect, it } from 'vitest';
import { formatIssues, issuesFromStandard, pointerSegments, renderIssue, renderPath } from './issues.js';

describe('paths', () => {
  it('renders keys, indices and awkward keys', () => {
    expect(renderPath([])).toBe('');
    expect(renderPath(['address', 'city'])).toBe('address.city');
    expect(renderPath(['items', 0, 'name'])).toBe('items[0].name');
    expect(renderPath(['headers', 'content-type'])).toBe('headers.content-type');
    expect(renderPath(['a', 'x y', '0'])).toBe("a['x y']['0']");
    expect(renderPath([3])).toBe('[3]');
  });

  it('decodes cfworker pointers (percent-encoding, then ~1 and ~0)', () => {
    expect(pointerSegments('#')).toEqual([]);
    expect(pointerSegments('#/a/b')).toEqual(['a', 'b']);
    expect(pointerSegments('#/a~1b~0c%20d%25')).toEqual(['a/b~c d%']);
    expect(pointerSegments('#/caf%C3%A9')).toEqual(['café']);
    expect(pointerSegments('#/%E0%A4%A')).toEqual(['%E0%A4%A']);
  });
});

describe('formatting', () => {
  it('puts predicates after the quoted path and vendor sentences after a colon', () => {
    expect(renderIssue({ path: ['a'], message: 'is required' })).toBe('"a" is required');
    expect(renderIssue({ path: ['a'], message: 'Invalid input' })).toBe('"a": Invalid input');
    expect(renderIssue({ path: [], message: 'must be object (got array)' })).toBe('must be object (got array)');
    expect(renderIssue({ path: ['say "hi"'], message: 'is required' })).toBe(String.raw`"['say \"hi\"']" is required`);
  });

  it('deduplicates, caps at ten issues and names the subject', () => {
    const many = Array.from({ length: 14 }, (_, i) => ({ path: [`f${i}`], message: 'is required' }));
    const message = formatIssues([...many, ...many]);
    expect(message.startsWith('Invalid arguments: "f0" is required; "f1" is required')).toBe(true);
    expect(message.endsWith('"f9" is required; … and 4 more')).toBe(true);
    expect(formatIssues([{ path: ['x'], message: 'is required' }], 'structured content')).toBe(
      'Invalid structured content: "x" is required',
    );
    expect(formatIssues([])).toBe('Invalid arguments');
  });

  it('normalises Standard Schema issue paths', () => {
    expect(issuesFromStandard([{ message: 'x.y must be a string', path: [{ key: 'x' }, 'y'] }])).toEqual([
      { path: ['x', 'y'], message: 'must be a string' },
    ]);
    expect(issuesFromStandard([{ message: 'nope', path: undefined }])).toEqual([{ path: [], message: 'nope' }]);
  });
});
