// Tests read JSON bodies loosely: Response.json() returns any here instead of unknown.
export {};
declare global {
  interface Response {
    json(): Promise<any>;
  }
}
