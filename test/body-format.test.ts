import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyFormat, defaultRepresentations, HttpError } from '../src/index.js';

const body = suite('bodyFormat');

const status = (contentType: string | null) => {
  try {
    bodyFormat(defaultRepresentations, contentType);
    return 200;
  } catch (e) {
    return (e as HttpError).status;
  }
};

body('should pick the format that reads the Content-Type', () => {
  assert.is(bodyFormat(defaultRepresentations, 'application/vnd.api+json').representation.name, 'jsonapi');
  assert.is(bodyFormat(defaultRepresentations, 'application/x-www-form-urlencoded; charset=UTF-8').representation.name, 'siren');
  assert.is(bodyFormat(defaultRepresentations, 'Application/Vnd.Siren+JSON').representation.name, 'siren');
});

body('should answer 415 for JSON:API with parameters other than ext and profile', () => {
  assert.is(status('application/vnd.api+json; profile="https://x.test/p"'), 200);
  assert.is(status('application/vnd.api+json; charset=utf-8'), 415);
  assert.is(status('application/vnd.api+json; version=1'), 415);
  assert.is(status('application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"'), 415);
});

body('should answer 415 for a type no format reads, listing the accepted ones', () => {
  assert.is(status('text/csv'), 415);
  assert.is(status(null), 415);
  try {
    bodyFormat(defaultRepresentations, 'text/csv');
  } catch (e) {
    assert.ok(((e as HttpError).extensions.accepted as string[]).includes('application/vnd.api+json'));
  }
});

body.run();
