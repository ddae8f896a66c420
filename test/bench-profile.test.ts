// bench/profile's reading of a V8 CPU profile (bench/support/profile-categories.ts): each sample's time
// goes to the part of the server its function belongs to, per request.
import { describe, expect, it } from 'vitest';
import { categoryOf, perRequest, topLibraryFunctions, type CpuProfile } from '../bench/support/profile-categories.js';

const BUILD = 'file:///work/node_modules/.cache/bench-build';
const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber, scriptId: '0', columnNumber: 0 });

describe('categoryOf', () => {
  it('names the library by layer, the baseline, Node, socket writes, GC and the rest', () => {
    expect(categoryOf(frame('respond', `${BUILD}/src/core/respond/conditional-get.js`))).toBe('library core/respond');
    expect(categoryOf(frame('get', `${BUILD}/src/stores/memory.js`))).toBe('library stores');
    expect(categoryOf(frame('get', `${BUILD}/src/stores/postgres/store.js`))).toBe('library stores');
    expect(categoryOf(frame('render', `${BUILD}/src/representations/hal.js`))).toBe('library representations');
    expect(categoryOf(frame('x', `${BUILD}/src/index.js`))).toBe('library index');
    expect(categoryOf(frame('post', `${BUILD}/bench/support/realistic-baseline.js`))).toBe('baseline code');
    expect(categoryOf(frame('_storeHeader', 'node:_http_outgoing'))).toBe('Node (HTTP, streams, events)');
    expect(categoryOf(frame('writev', ''))).toBe('socket writes');
    expect(categoryOf(frame('(garbage collector)', ''))).toBe('garbage collector');
    expect(categoryOf(frame('(idle)', ''))).toBe('idle');
    expect(categoryOf(frame('(program)', ''))).toBe('V8 and native (program, builtins)');
  });
});

describe('perRequest and topLibraryFunctions', () => {
  // Three nodes, six samples, each standing for the time until the next: 300 us in the library's
  // respond step, 100 in GC, 500 idle, over 10 requests (the last sample has no next: no time).
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('respond', `${BUILD}/src/core/respond/conditional-get.js`, 41) },
      { id: 2, callFrame: frame('(garbage collector)', '') },
      { id: 3, callFrame: frame('(idle)', '') },
    ],
    samples: [1, 2, 1, 3, 1, 2],
    timeDeltas: [0, 100, 100, 100, 500, 100],
  };

  it('adds up each sample by part, per request, idle left out', () => {
    expect(Object.fromEntries(perRequest(profile, 10))).toEqual({ 'library core/respond': 30, 'garbage collector': 10 });
  });

  it('ranks the library functions by own time', () => {
    expect(topLibraryFunctions(profile, 10, 5)).toEqual([['respond core/respond/conditional-get.js:42', 30]]);
  });
});
