// The parts of a server's CPU profile (V8's, from the inspector): where a request's time goes, by layer.

/** The parts of a V8 CPU profile this reads (Profiler.stop's `profile`). */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * The part of the server a profile node's own time belongs to: the library by layer (`library
 * core/respond`, `library stores`...), the baseline's own code, Node's own JavaScript (HTTP, streams,
 * events), socket writes, V8's garbage collector, other native code, or idle (not CPU).
 *
 * @example
 * categoryOf({ functionName: 'respond', url: 'file:///x/node_modules/.cache/bench-build/src/core/respond/conditional-get.js', lineNumber: 3 }); // 'library core/respond'
 */
export function categoryOf(frame: { functionName: string; url: string }): string {
  const { functionName: name, url } = frame;
  const src = url.lastIndexOf('/src/');
  if (src !== -1) {
    const parts = url.slice(src + 5).split('/');
    return parts[0] === 'core' && parts.length > 2 ? `library core/${parts[1]}` : `library ${parts.length > 1 ? parts[0] : 'index'}`;
  }
  if (url.includes('/bench/')) return 'baseline code';
  if (url.startsWith('node:')) return 'Node (HTTP, streams, events)';
  if (url.includes('/node_modules/')) return 'dependencies';
  if (name === '(idle)') return 'idle';
  if (name === '(garbage collector)') return 'garbage collector';
  if (name === 'writev' || name === 'writeUtf8String' || name === 'writeBuffer' || name === 'writeLatin1String') return 'socket writes';
  return 'V8 and native (program, builtins)';
}

/**
 * The CPU time of a profile by category (`categoryOf`), in microseconds per request over `requests`
 * requests; idle time is left out.
 *
 * @example
 * perRequest(profile, 40_000).get('garbage collector'); // 5.1
 */
export function perRequest(profile: CpuProfile, requests: number): Map<string, number> {
  const category = new Map<number, string>();
  for (const node of profile.nodes) category.set(node.id, categoryOf(node.callFrame));
  const out = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const c = category.get(profile.samples[i]!)!;
    if (c !== 'idle') out.set(c, (out.get(c) ?? 0) + sampleTime(profile, i) / requests);
  }
  return out;
}

/**
 * The functions of the library with the most own time, microseconds per request: name, file, line.
 *
 * @example
 * topLibraryFunctions(profile, 40_000, 10)[0]; // ['parseJsonText core/http/request-body.js:209', 7.7]
 */
export function topLibraryFunctions(profile: CpuProfile, requests: number, count: number): [string, number][] {
  const own = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  for (let i = 0; i < profile.samples.length; i++) {
    const frame = byId.get(profile.samples[i]!)!;
    const src = frame.url.lastIndexOf('/src/');
    if (src === -1) continue;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.slice(src + 5)}:${frame.lineNumber + 1}`;
    own.set(key, (own.get(key) ?? 0) + sampleTime(profile, i) / requests);
  }
  return [...own].sort((a, b) => b[1] - a[1]).slice(0, count);
}

/** The time sample `i` stands for: until the next sample (`timeDeltas[i]` is the time since the one before). */
function sampleTime(profile: CpuProfile, i: number): number {
  return profile.timeDeltas[i + 1] ?? 0;
}
