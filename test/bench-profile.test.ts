// bench/profile's reading of a V8 CPU profile (bench/support/profile-categories.ts): each sample's time
// goes to the part of the server its function belongs to, per request.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { categoryOf, perRequest, topLibraryFunctions, type CpuProfile } from '../bench/support/profile-categories.js';

const BUILD = 'file:///work/node_modules/.cache/bench-build';
const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber });

const categories = suite('categoryOf: the part of the server a function belongs to');

categories('should name the library by layer, the baseline, Node, socket writes, GC and the rest', () => {
  assert.is(categoryOf(frame('respond', `${BUILD}/src/core/respond/conditional-get.js`)), 'library core/respond');
  assert.is(categoryOf(frame('get', `${BUILD}/src/stores/memory.js`)), 'library stores');
  assert.is(categoryOf(frame('get', `${BUILD}/src/stores/postgres/store.js`)), 'library stores');
  assert.is(categoryOf(frame('render', `${BUILD}/src/representations/hal.js`)), 'library representations');
  assert.is(categoryOf(frame('x', `${BUILD}/src/index.js`)), 'library index');
  assert.is(categoryOf(frame('post', `${BUILD}/bench/support/realistic-baseline.js`)), 'baseline code');
  assert.is(categoryOf(frame('_storeHeader', 'node:_http_outgoing')), 'Node (HTTP, streams, events)');
  assert.is(categoryOf(frame('writev', '')), 'socket writes');
  assert.is(categoryOf(frame('(garbage collector)', '')), 'garbage collector');
  assert.is(categoryOf(frame('(idle)', '')), 'idle');
  assert.is(categoryOf(frame('(program)', '')), 'V8 and native (program, builtins)');
});

const sums = suite('perRequest and topLibraryFunctions: sampled time per request');

// Three nodes, six samples, each standing for the time until the next: 300 us in the library's respond
// step, 100 in GC, 500 idle, over 10 requests (the last sample has no next: no time).
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('respond', `${BUILD}/src/core/respond/conditional-get.js`, 41) },
    { id: 2, callFrame: frame('(garbage collector)', '') },
    { id: 3, callFrame: frame('(idle)', '') },
  ],
  samples: [1, 2, 1, 3, 1, 2],
  timeDeltas: [0, 100, 100, 100, 500, 100],
};

sums('should add up each sample by part, per request, idle left out', () => {
  assert.equal(Object.fromEntries(perRequest(profile, 10)), { 'library core/respond': 30, 'garbage collector': 10 });
});

sums('should rank the library functions by own time', () => {
  assert.equal(topLibraryFunctions(profile, 10, 5), [['respond core/respond/conditional-get.js:42', 30]]);
});

categories.run();
sums.run();
