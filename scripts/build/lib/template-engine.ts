import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { ENGINE_MEMORY_BYTES } from "../../../src/content/sites/templates";

const SOURCE = "node_modules/minijinja-js/dist/web/minijinja_js_bg.wasm";
/** Where src/content/sites/templates.ts imports the engine's WebAssembly from. */
const OUT_DIR = "build/template-engine";
const MEMORY_SECTION = 5;
const CODE_SECTION = 10;
const DATA_SECTION = 11;
const I32_CONST = 0x41;
const CALL = 0x10;

/**
 * minijinja's HTML escaping as MarkupSafe's (Jinja2's): `'` and `"` are `&#39;` and `&#34;`, and
 * `/` stays itself (minijinja writes `&#x27;`, `&quot;` and `&#x2f;`). Each replacement is no
 * longer than minijinja's entity, so the string is rewritten in place and the length its writer
 * passes (a one-byte constant) lowered.
 */
const MARKUPSAFE_ENTITIES: [minijinja: string, markupsafe: string][] = [
  ["&#x27;", "&#39;"],
  ["&quot;", "&#34;"],
  ["&#x2f;", "/"],
];

function leb128(value: number): number[] {
  const bytes: number[] = [];
  do {
    const byte = value & 0x7f;
    value >>>= 7;
    bytes.push(value ? byte | 0x80 : byte);
  } while (value);
  return bytes;
}

/** A signed LEB128 number, as `i32.const` writes its operand. */
function sleb128(value: number): number[] {
  const bytes: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && !(byte & 0x40)) || (value === -1 && byte & 0x40)) return [...bytes, byte];
    bytes.push(byte | 0x80);
  }
}

/** An unsigned LEB128 number of `bytes` at `at`, and where it ends. */
function readLeb128(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = bytes[at++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (!(byte & 0x80)) return [value, at];
  }
}

/** Each section of the module: its id, where it starts in the file, where its content starts, and its size. */
function sectionsOf(wasm: Uint8Array): { id: number; at: number; start: number; size: number }[] {
  const sections = [];
  for (let at = 8; at < wasm.length;) {
    const [size, start] = readLeb128(wasm, at + 1);
    sections.push({ id: wasm[at]!, at, start, size });
    at = start + size;
  }
  return sections;
}

/** Every place `needle` occurs in `bytes` between `from` and `to` (Buffer's native search: the code section is megabytes). */
function occurrences(bytes: Uint8Array, needle: number[], from: number, to: number): number[] {
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, to);
  const pattern = Buffer.from(needle);
  const found: number[] = [];
  for (let at = haystack.indexOf(pattern, from); at !== -1; at = haystack.indexOf(pattern, at + 1)) found.push(at);
  return found;
}

/**
 * Rewrites, in place, each entity minijinja's escaper writes into MarkupSafe's: the string in the
 * data section, and the `i32.const <address> i32.const <length> call` that writes it. Anything
 * else than exactly one such string and one such writer (another minijinja-js) stops the build.
 */
function escapeAsMarkupSafe(wasm: Uint8Array): void {
  const sections = sectionsOf(wasm);
  const code = sections.find((s) => s.id === CODE_SECTION);
  const data = sections.find((s) => s.id === DATA_SECTION);
  if (!code || !data) throw new Error(`${SOURCE}: no code or data section`);
  // Active segments of memory 0 at a constant address: (address, where its bytes are in the file, length).
  const segments: { address: number; at: number; length: number }[] = [];
  let [count, at] = readLeb128(wasm, data.start);
  for (; count > 0; count--) {
    if (wasm[at] !== 0 || wasm[at + 1] !== I32_CONST) throw new Error(`${SOURCE}: a data segment this script does not know`);
    const [address, afterAddress] = readLeb128(wasm, at + 2);
    if (wasm[afterAddress] !== 0x0b) throw new Error(`${SOURCE}: a data segment this script does not know`);
    const [length, bytesAt] = readLeb128(wasm, afterAddress + 1);
    segments.push({ address, at: bytesAt, length });
    at = bytesAt + length;
  }
  for (const [entity, replacement] of MARKUPSAFE_ENTITIES) {
    const text = [...new TextEncoder().encode(entity)];
    const places = segments.flatMap((s) => occurrences(wasm, text, s.at, s.at + s.length).map((p) => ({ file: p, address: s.address + p - s.at })));
    if (places.length !== 1) throw new Error(`${SOURCE}: ${places.length} copies of ${entity}, one expected`);
    const [{ file, address }] = places as [{ file: number; address: number }];
    const writers = occurrences(wasm, [I32_CONST, ...sleb128(address), I32_CONST, text.length, CALL], code.start, code.start + code.size);
    // Nothing else may point into the string: the bytes after the replacement are no longer the entity's.
    const others = text.slice(1).flatMap((_, i) => occurrences(wasm, [I32_CONST, ...sleb128(address + i + 1)], code.start, code.start + code.size));
    if (writers.length !== 1 || others.length) throw new Error(`${SOURCE}: the writer of ${entity} is not the one this script knows`);
    const bytes = new TextEncoder().encode(replacement);
    wasm.set(bytes, file);
    wasm[writers[0]! + 1 + sleb128(address).length + 1] = bytes.length;
  }
}

/**
 * minijinja's WebAssembly with a maximum written into its memory section (a template that grows
 * without end traps at ENGINE_MEMORY_BYTES, within milliseconds, instead of taking the isolate to
 * 4 GB) and with MarkupSafe's escaping. Workers cannot compile WebAssembly at run time, so both are
 * done here, on the file. Run by the Worker build and by the test config.
 */
export function buildTemplateEngine(): void {
  const wasm = new Uint8Array(readFileSync(SOURCE));
  escapeAsMarkupSafe(wasm);
  const memory = sectionsOf(wasm).find((s) => s.id === MEMORY_SECTION);
  if (!memory) throw new Error(`${SOURCE}: no memory section`);
  const { at, start, size } = memory;
  const [count, limits] = readLeb128(wasm, start);
  // One memory, 32-bit, not shared, with a minimum only (flags 0) or already a maximum (flags 1).
  if (count !== 1 || wasm[limits]! > 1) throw new Error(`${SOURCE}: a memory section this script does not know`);
  const [minimum] = readLeb128(wasm, limits + 1);
  const maximum = ENGINE_MEMORY_BYTES / 65536;
  if (minimum > maximum) throw new Error(`${SOURCE}: starts with ${minimum} pages, more than the ${maximum} allowed`);
  const content = [1, 1, ...leb128(minimum), ...leb128(maximum)];
  const bounded = Buffer.concat([
    wasm.subarray(0, at),
    new Uint8Array([MEMORY_SECTION, ...leb128(content.length), ...content]),
    wasm.subarray(start + size),
  ]);
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(`${OUT_DIR}/minijinja_js_bg.wasm`, bounded);
}
