import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ListenedChannels, REVISION_CHANNEL, schemaChannel, statementChannel } from '../src/stores/postgres/channels.js';

// Which notices a listening session counts, and what they say (docs/decisions.md, "Change feed"): the
// channel its schema's triggers notify and every later one, until a later one is heard from (migration
// 8 notifies the shared channel and the schema's own, 9 its own only, 10 the statement channel only).

const own = schemaChannel('public');
const statements = statementChannel('public');

test('a schema at migration 10 or later: the statement channel only', () => {
  const channels = new ListenedChannels('public', 10);
  assert.equal(channels.names, [statements]);
  assert.ok(channels.counts(statements));
  assert.not.ok(channels.counts(own), 'the row channel is not listened to');
  assert.not.ok(channels.counts(REVISION_CHANNEL));
  assert.not.ok(channels.counts(statementChannel('other')));
  assert.is.not(statements, own);
  assert.ok(statements.length <= 63, 'within an identifier');
});

test('a schema at migration 8 or 9: its own channel counts until the statement channel is heard from', () => {
  const channels = new ListenedChannels('public', 9);
  assert.equal(channels.names, [own, statements]);
  assert.ok(channels.counts(own));
  assert.not.ok(channels.counts(REVISION_CHANNEL), 'the shared channel is not listened to');
  // Migrated to 10 meanwhile: the first statement notice counts, and the row channel's after it do not.
  assert.ok(channels.counts(statements));
  assert.not.ok(channels.counts(own), 'the same change again');
  assert.ok(channels.counts(statements));
});

test('a schema below migration 8 (or unreadable): every channel, each counting until a later one is heard from', () => {
  const channels = new ListenedChannels('public', 0);
  assert.equal(channels.names, [REVISION_CHANNEL, own, statements]);
  assert.ok(channels.counts(REVISION_CHANNEL), 'migration 7: the shared channel only');
  assert.ok(channels.counts(own));
  assert.not.ok(channels.counts(REVISION_CHANNEL), 'the same change again');
  assert.ok(channels.counts(own));
  assert.not.ok(channels.counts('player_hypermedia_changes'), 'the oldest channel is never listened to');
  assert.equal(new ListenedChannels('public', 7).names, channels.names);
});

test('a row notice: one key, a line feed in it as it is', () => {
  const channels = new ListenedChannels('public', 9);
  assert.equal(channels.changes(own, 'public\nplayer/alice\n7'), [['player/alice', '7']]);
  assert.equal(channels.changes(own, 'public\nplayer/a\nb\n8'), [['player/a\nb', '8']]);
  assert.equal(channels.changes(own, 'public\nmedia/alice\n'), [['media/alice', '']], 'a media change has no revision');
  assert.equal(channels.changes(own, 'other\nplayer/alice\n7'), [], 'another schema');
  assert.equal(channels.changes(own, 'public\nplayer/alice'), [], 'no revision line');
});

test('a statement notice: every key it names, escaped keys read back', () => {
  const channels = new ListenedChannels('public', 10);
  assert.equal(channels.changes(statements, 'public\nplayer/alice\n7\nplayer/bob\n8\nplayer/carol\n'), [
    ['player/alice', '7'],
    ['player/bob', '8'],
    ['player/carol', ''],
  ]);
  assert.equal(channels.changes(statements, 'public\nplayer/a\\nb\\\\c\\\\n\n9'), [['player/a\nb\\c\\n', '9']]);
  assert.equal(channels.changes(statements, 'other\nplayer/alice\n7'), [], 'another schema');
  assert.equal(channels.changes(own, 'public\nplayer/alice\n7'), [], 'a channel not listened to');
});

test.run();
