// A tiny custom format for caching tests: a variant from `?shout=1`, embedded friends from `?embed=friends`.
import { HttpError, type Representation } from '../../src/index.js';

export const TINY_MEDIA_TYPE = 'application/x-tiny';

/** Renders `id:alias` lines; `shout=1` upper-cases them (a variant), `embed=friends` adds the first page of friends. */
export const tinyRepresentation: Representation = {
  name: 'tiny',
  mediaType: TINY_MEDIA_TYPE,
  contentType: `${TINY_MEDIA_TYPE}; charset=utf-8`,
  plan(query) {
    const shout = query.get('shout');
    if (shout !== null && shout !== '1') throw new HttpError(400, 'shout must be 1');
    const embed = query.get('embed') === 'friends';
    return { embedFriends: embed, variant: `${shout ? 'shout' : ''}${embed ? '+friends' : ''}`, options: { shout: shout === '1' } };
  },
  render(resource, plan) {
    const shout = (plan?.options as { shout?: boolean } | undefined)?.shout;
    const line = (p: { playerId: string; alias: string }) => `${p.playerId}:${shout ? p.alias.toUpperCase() : p.alias}`;
    if (resource.kind === 'player') {
      const friends = resource.friends ? resource.friends.items.map((i) => ` ${line(i.player)}`).join('\n') : '';
      return `${line(resource.player)}\n${friends}`;
    }
    return resource.items.map((i) => line(i.player)).join('\n');
  },
};
