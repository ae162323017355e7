// drizzle-zod's column types ask whether a column's data extends Buffer; without Node's types that name was unknown and made
// every derived column `any`. Declared as Node declares it, so that it merges with Node's where scripts load those.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- Node's declaration, where present, brings the members
interface Buffer<TArrayBuffer extends ArrayBufferLike = ArrayBufferLike> extends Uint8Array<TArrayBuffer> {}
