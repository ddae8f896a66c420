import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ListenedChannels, REVISION_CHANNEL, schemaChannel } from '../src/stores/postgres/channels.js';

// Which notices a listening session counts (docs/decisions.md, "Change feed"): on a schema below
// migration 8 the shared channel's, until the schema's own channel is heard from (migration 8 notifies
// both, in that order; migration 9 the schema's own only).

test('a schema at migration 8 or later: its own channel only', () => {
  const channels = new ListenedChannels('public', false);
  assert.equal(channels.names, [schemaChannel('public')]);
  assert.ok(channels.counts(schemaChannel('public')));
  assert.not.ok(channels.counts(REVISION_CHANNEL), 'the shared channel is not listened to');
  assert.not.ok(channels.counts(schemaChannel('other')));
});

test('a schema below migration 8: the shared channel counts until its own is heard from', () => {
  const channels = new ListenedChannels('public', true);
  assert.equal(channels.names, [REVISION_CHANNEL, schemaChannel('public')]);
  assert.ok(channels.counts(REVISION_CHANNEL), 'migration 7: the shared channel only');
  assert.ok(channels.counts(REVISION_CHANNEL));
  // Migrated meanwhile: the first notice on its own channel counts, and the shared channel's copies after it do not.
  assert.ok(channels.counts(schemaChannel('public')));
  assert.not.ok(channels.counts(REVISION_CHANNEL), 'the same change again');
  assert.ok(channels.counts(schemaChannel('public')));
  assert.not.ok(channels.counts('player_hypermedia_changes'), 'the oldest channel is never listened to');
});

test.run();
