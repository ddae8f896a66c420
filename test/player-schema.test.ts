import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Ajv } from 'ajv';
import { PLAYER_SCHEMA, HttpError } from '../src/index.js';
import { checkItem, requireValidItem } from '../src/core/resources/validation.js';
import { PLAYER } from '../src/player/documents.js';

const checkPlayerSchema = (document: unknown) => checkItem(PLAYER, document);
const requireValidPlayer = (document: unknown, options: { wrongTypeStatus?: 400 | 422 | undefined } = {}) =>
  requireValidItem(PLAYER, document, options.wrongTypeStatus === undefined ? {} : { wrongTypeStatus: options.wrongTypeStatus });

const schema = suite('PLAYER_SCHEMA');

schema('should accept a full player and a minimal one', () => {
  assert.equal(checkPlayerSchema({ playerId: 'a.b_c~d-1', alias: 'a', displayName: '', image: 'https://cdn.test/a.png' }).errors, []);
  assert.equal(checkPlayerSchema({ playerId: 'bob', alias: 'bobby', profilePhotoUrl: 'https://x.test/player/bob/avatar.png' }).errors, []);
});

schema('should enforce the documented field limits with a pointer per field', () => {
  const check = (doc: object) => checkPlayerSchema({ playerId: 'bob', alias: 'bobby', ...doc }).errors.map((e) => e.pointer);
  assert.equal(check({ playerId: 'x'.repeat(65) }), ['/playerId']);
  assert.equal(check({ playerId: 'a/b' }), ['/playerId']);
  assert.equal(check({ alias: '' }), ['/alias']);
  assert.equal(check({ alias: 'x'.repeat(64) }), []);
  assert.equal(check({ alias: 'x'.repeat(65) }), ['/alias']);
  assert.equal(check({ displayName: 'x'.repeat(128) }), []);
  assert.equal(check({ displayName: 'x'.repeat(129) }), ['/displayName']);
  assert.equal(check({ image: 'mailto:a@b.test' }), ['/image']);
  assert.equal(check({ image: 'https://x.test/' + 'a'.repeat(2048) }), ['/image']);
  assert.equal(check({ other: 1 }), ['/other']);
  assert.equal(checkPlayerSchema({ playerId: 'bob' }).errors, [{ pointer: '/alias', detail: 'is required' }]);
});

schema('should count characters, not UTF-16 units', () => {
  assert.equal(checkPlayerSchema({ playerId: 'bob', alias: '😀'.repeat(64) }).errors, []);
});

schema('should tell type errors (400) from rule errors (422)', () => {
  const status = (doc: unknown, wrongTypeStatus?: 400 | 422) => {
    try {
      requireValidPlayer(doc, { wrongTypeStatus });
      return 0;
    } catch (e) {
      return (e as HttpError).status;
    }
  };
  assert.is(status({ playerId: 'bob', alias: 7 }), 400);
  assert.is(status([]), 400);
  assert.is(status({ playerId: 'bob', alias: 7 }, 422), 422);
  assert.is(status({ playerId: 'bob', alias: '' }), 422);
  assert.is(status({ playerId: 'bob', alias: 'ok' }), 0);
});

schema('should compile with a stock Ajv, as users would use it', () => {
  const validate = new Ajv({ strict: false, validateFormats: false }).compile(PLAYER_SCHEMA);
  assert.ok(validate({ playerId: 'bob', alias: 'bobby' }));
  assert.not.ok(validate({ playerId: 'bob' }));
});

schema.run();
