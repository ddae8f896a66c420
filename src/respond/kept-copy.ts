// The answer memo's own copy of a selected representation.
import type { SelectedAnswers } from './selected.js';

/**
 * The memo's own copy of a selected representation (its body shared: strings are immutable). Kept
 * objects are made here rather than retained from the request that computed them: V8 decides by
 * allocation site whether to allocate straight into the old generation, and a site whose objects the
 * memo keeps looks long-lived, so retaining the request path's own objects had every request's fields,
 * validators and lists allocated there too (measured: seven times the bytes promoted, twice the
 * scavenge time, under 10% writes).
 *
 * @example
 * entries.set(key, { selected: keptCopy(ctx.selected), since });
 */
export function keptCopy(selected: SelectedAnswers): SelectedAnswers {
  const ok = selected.ok;
  const dependsOn = selected.dependsOn;
  return {
    validators: { ...selected.validators },
    fields: new Map(selected.fields),
    maxAge: selected.maxAge,
    dependsOn: dependsOn === 'all' ? 'all' : [...dependsOn],
    ok: ok && { contentType: ok.contentType, fields: ok.fields && new Map(ok.fields), body: ok.body, size: ok.size },
  };
}
