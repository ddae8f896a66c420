import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bearerTokens } from '../src/index.js';
import { demoService } from './support/service.js';

const bearer = suite('bearerTokens');

bearer('should accept a known token and refuse anything else', async () => {
  const auth = bearerTokens(['s3cret', 'other']);
  const req = (value: string) => new Request('https://x.test/', { headers: { Authorization: value } });
  assert.equal(await auth(req('Bearer s3cret')), { id: 'token-1' });
  assert.equal(await auth(req('bearer other')), { id: 'token-2' });
  assert.is(await auth(req('Bearer nope')), null);
  assert.is(await auth(req('Basic czNjcmV0')), null);
  assert.is(await auth(req('Bearer')), null);
});

bearer.run();

const reads = suite('authentication on reads');

reads('should keep reads public without credentials', async () => {
  const { call } = await demoService({ authenticate: bearerTokens(['s3cret']) });
  assert.is((await call('/player/alice')).status, 200);
});

reads('should answer 401 with a challenge for invalid credentials, even on a public read', async () => {
  const { call } = await demoService({ authenticate: bearerTokens(['s3cret']) });
  const res = await call('/player/alice', { headers: { Authorization: 'Bearer wrong' } });
  assert.is(res.status, 401);
  assert.match(res.headers.get('www-authenticate')!, /^Bearer /);
  assert.is(res.headers.get('content-type'), 'application/problem+json');
  assert.is((await call('/player/alice', { headers: { Authorization: 'Bearer s3cret' } })).status, 200);
});

reads('should treat any credentials as invalid when no hook is configured', async () => {
  const { call } = await demoService();
  assert.is((await call('/player/alice', { headers: { Authorization: 'Bearer x' } })).status, 401);
});

reads.run();
