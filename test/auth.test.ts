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

bearer('should read the Bearer scheme as RFC 6750 section 2.1 writes it, and nothing looser', async () => {
  const auth = bearerTokens(['', 'with space', 'a.b-c_d~e+f/g==', 's3cret']);
  const head = (value: string) => ({ headers: { get: (name: string) => (name === 'authorization' ? value : null) } }) as unknown as Request;
  // Ids count every token given, whether or not it can be presented.
  assert.equal(await auth(head('Bearer a.b-c_d~e+f/g==')), { id: 'token-2' });
  assert.equal(await auth(head('BEARER   s3cret')), { id: 'token-3' });
  assert.equal(await auth(head('bEaReR s3cret \t ')), { id: 'token-3' });
  for (const refused of ['Bearer with space', 'Bearer\ts3cret', ' Bearer s3cret', 'Bearers3cret', 'Bearer s3cret x', 'Bearer s3cre', 'Bearer s3cret=', 'Bearer ', 'Bearer      ', 'Token s3cret']) {
    assert.is(await auth(head(refused)), null, refused);
  }
  assert.is(await auth({ headers: { get: () => null } } as unknown as Request), null);
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
