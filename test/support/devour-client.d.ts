// devour-client ships no types; the tests use its JsonApi class through their own narrow interface.
declare module 'devour-client' {
  const JsonApi: unknown;
  export default JsonApi;
}
