import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { utf8Length } from '../src/core/respond/utf8-length.js';

const TEXTS = ['', 'plain', 'naïve', 'euro €', 'pair \ud83d\ude00', 'lone \ud800 high', 'lone \udc00 low', '\ud83d', 'x'.repeat(70_000) + '€', '😀'.repeat(300_000)];
const encoded = (text: string) => new TextEncoder().encode(text).byteLength;

const test = suite('utf8Length');

test("should count what TextEncoder writes, with the runtime's counter", () => {
  for (const text of TEXTS) assert.is(utf8Length(text), encoded(text), JSON.stringify(text.slice(0, 20)));
});

test('should count the same with TextEncoder alone, where the runtime has no counter of its own', async () => {
  const buffer = Object.getOwnPropertyDescriptor(globalThis, 'Buffer')!;
  Reflect.deleteProperty(globalThis, 'Buffer');
  let fallback: typeof utf8Length;
  try {
    // A second instance of the module, evaluated while there is no Buffer.
    const instance = '../src/core/respond/utf8-length.js?no-buffer';
    ({ utf8Length: fallback } = (await import(instance)) as { utf8Length: typeof utf8Length });
  } finally {
    Object.defineProperty(globalThis, 'Buffer', buffer);
  }
  assert.ok(fallback !== utf8Length);
  for (const text of TEXTS) assert.is(fallback(text), encoded(text), JSON.stringify(text.slice(0, 20)));
});

test.run();
