// A tiny custom format for caching tests: a variant from `?shout=1`, embedded friends from `?embed=friends`.
import { HttpError, type Representation } from '../../src/index.js';
import type { Item } from '../../src/core/model/resource.js';

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
    return { embed: embed ? ['friends'] : [], variant: `${shout ? 'shout' : ''}${embed ? '+friends' : ''}`, options: { shout: shout === '1' } };
  },
  render(resource, plan) {
    const shout = (plan?.options as { shout?: boolean } | undefined)?.shout;
    const line = (i: Item) => `${i.id}:${shout ? String(i.fields.alias).toUpperCase() : String(i.fields.alias)}`;
    if (resource.kind === 'item') {
      const page = resource.relations?.friends;
      const friends = page ? page.items.map((i) => ` ${line(i)}`).join('\n') : '';
      return `${line(resource)}\n${friends}`;
    }
    return resource.items.map(line).join('\n');
  },
};
