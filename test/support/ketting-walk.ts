// Test helper: a real hypermedia client (ketting) walking a friends list page by page.
import type { Client, State } from 'ketting';

/**
 * Follows `friendsRel` from `start` with a client limited to one media type, then `next` until there is
 * none; returns every page's state in order.
 */
export async function walkFriendPages(client: Client, mediaType: string, start: string, friendsRel = 'friends'): Promise<State[]> {
  client.contentTypeMap = { [mediaType]: client.contentTypeMap[mediaType]! };
  let resource = await client.go(start).follow(friendsRel);
  const pages: State[] = [];
  for (;;) {
    const state = await resource.get();
    pages.push(state);
    if (!state.links.has('next')) return pages;
    resource = await resource.follow('next');
  }
}
