import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PresetResponse, presetBody } from '../src/core/preset-response.js';

const preset = suite('PresetResponse');

const make = () => new PresetResponse('{"a":"é"}', { status: 201, headers: { 'Content-Type': 'application/json' } });

preset('should read as text, json, bytes and blob like a Response', async () => {
  assert.is(await make().text(), '{"a":"é"}');
  assert.equal(await make().json(), { a: 'é' });
  assert.equal([...new Uint8Array(await make().arrayBuffer())], [...new TextEncoder().encode('{"a":"é"}')]);
  assert.is(await (await make().blob()).text(), '{"a":"é"}');
  assert.is((await make().blob()).type, 'application/json');
  const r = make();
  assert.equal([r.status, r.headers.get('content-type'), r instanceof Response], [201, 'application/json', true]);
});

preset('should give its body to an adapter once, and not after it was read', async () => {
  const r = make();
  assert.is(presetBody(r), '{"a":"é"}');
  await r.text();
  assert.is(presetBody(r), undefined);
  assert.ok(r.bodyUsed);
  try {
    await r.text();
    assert.unreachable('read twice');
  } catch (e) {
    assert.instance(e, TypeError);
  }
  assert.is(presetBody(new Response('x')), undefined);
});

preset('should stream its body when asked for the stream, and clone', async () => {
  const r = make();
  const copy = r.clone();
  assert.ok(r.body instanceof ReadableStream);
  assert.not.ok(r.bodyUsed);
  assert.is(presetBody(r), undefined);
  const again = r.clone();
  assert.is(await new Response(r.body).text(), '{"a":"é"}');
  assert.is(await copy.text(), '{"a":"é"}');
  assert.is(await again.text(), '{"a":"é"}');
  const bytes = new PresetResponse(new Uint8Array([1, 2]), { headers: { 'Content-Type': 'image/png' } });
  assert.equal([...new Uint8Array(await bytes.arrayBuffer())], [1, 2]);
  assert.is(new PresetResponse('plain').headers.get('content-type'), 'text/plain;charset=UTF-8');
});

preset.run();
