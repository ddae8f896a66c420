import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PNG } from 'pngjs';
import { IDENTICON_SIZE, identiconEtag, identiconPng } from '../src/player/avatar/identicon.js';

const identicon = suite('identiconPng');

identicon('should draw a 64x64 PNG that a real decoder reads, with two colours, mirrored', async () => {
  const decoded = PNG.sync.read(Buffer.from(await identiconPng('alice')));
  assert.is(decoded.width, IDENTICON_SIZE);
  assert.is(decoded.height, IDENTICON_SIZE);
  const colour = (x: number, y: number) => [...decoded.data.subarray((y * IDENTICON_SIZE + x) * 4, (y * IDENTICON_SIZE + x) * 4 + 3)].join(',');
  const colours = new Set<string>();
  for (let y = 0; y < IDENTICON_SIZE; y++) for (let x = 0; x < IDENTICON_SIZE; x++) colours.add(colour(x, y));
  assert.is(colours.size, 2);
  for (let y = 0; y < IDENTICON_SIZE; y++) for (let x = 0; x < IDENTICON_SIZE; x++) assert.is(colour(x, y), colour(IDENTICON_SIZE - 1 - x, y));
});

identicon('should give the same bytes for the same id and different ones for another id', async () => {
  const a = await identiconPng('alice');
  await identiconPng('bob');
  assert.equal([...(await identiconPng('alice'))], [...a]);
  assert.is.not(Buffer.from(await identiconPng('bob')).toString('hex'), Buffer.from(a).toString('hex'));
  assert.is(identiconEtag('alice'), identiconEtag('alice'));
  assert.is.not(identiconEtag('alice'), identiconEtag('bob'));
});

identicon.run();
