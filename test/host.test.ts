import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isValidHost } from '../src/core/http/host.js';

const host = suite('isValidHost: uri-host [":" port] (RFC 9110 section 7.2, RFC 3986 section 3.2.2)');

host('should accept reg-names, IPv4 and IP literals, with or without a port', () => {
  for (const value of ['api.example.com', 'api.example.com:8080', 'localhost:', '127.0.0.1', '[::1]', '[::1]:3000', '[v1.fe80::a+en1]', 'a%2Db', "sub-delims!$&'()*+,;=", '']) {
    assert.ok(isValidHost(value), value);
  }
});

host('should refuse anything that could end an authority or is not host syntax', () => {
  for (const value of ['a/b', 'a?b', 'a#b', 'user@host', 'a\\b', 'a b', 'a:b:c', 'a:80x', '[::1', '::1', 'a%2', 'a%zz', 'a\tb', 'é.example', 'a, b', 'x'.repeat(1025)]) {
    assert.not.ok(isValidHost(value), value);
  }
});

host.run();
