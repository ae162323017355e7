import { randomBytes } from "node:crypto";
import { request } from "node:http";
import type { Socket } from "node:net";

/** A DevTools protocol session with the Worker's isolate. */
export interface Inspector {
  call<T>(method: string, timeoutMs?: number): Promise<T>;
  close(): void;
}

/**
 * Opens the Worker's isolate to the DevTools protocol through `wrangler dev`'s inspector port,
 * once: attaching stops the isolate for a second or more while the runtime describes its scripts,
 * so a reading every few seconds keeps one session. Written on node:http because Node 20's
 * WebSocket sends `User-Agent: node`, which the inspector refuses with a 400.
 */
export function openInspector(port: number, timeoutMs = 10_000): Promise<Inspector> {
  return new Promise((resolve, reject) => {
    const upgrade = request({
      host: "127.0.0.1",
      port,
      path: "/ws",
      headers: {
        Connection: "Upgrade",
        Upgrade: "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": randomBytes(16).toString("base64"),
      },
      timeout: timeoutMs,
    });
    upgrade.on("timeout", () => upgrade.destroy(new Error(`the inspector did not answer within ${timeoutMs} ms`)));
    upgrade.on("response", (response) => reject(new Error(`the inspector refused the connection (${response.statusCode})`)));
    upgrade.on("error", reject);
    upgrade.on("upgrade", (_response, socket: Socket, head: Buffer) => resolve(session(socket, head)));
    upgrade.end();
  });
}

/**
 * The inspector session of a measurement: `wrangler dev` forwards each request's network events
 * and console lines from the isolate to its own process through the inspector, a cost of the
 * local tool that production does not have. The session turns those domains off.
 */
export async function quietInspector(port: number): Promise<Inspector> {
  const inspector = await openInspector(port);
  for (const domain of ["Network", "Runtime", "Debugger", "Profiler"]) await inspector.call(`${domain}.disable`).catch(() => undefined);
  return inspector;
}

function session(socket: Socket, head: Buffer): Inspector {
  // The proxy makes calls of its own on the same socket (ids from 100000001): ours are apart from them.
  let lastId = 2_000_000_000;
  const waiting = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  let buffered = head;
  let message: Buffer[] = [];
  socket.on("data", (data: Buffer) => {
    buffered = Buffer.concat([buffered, data]);
    for (let frame = nextFrame(buffered); frame; frame = nextFrame(buffered)) {
      buffered = buffered.subarray(frame.length);
      // Text and its continuations carry messages; pings and the like carry none of ours.
      if (frame.opcode !== 0x1 && frame.opcode !== 0x0) continue;
      message.push(frame.payload);
      if (!frame.final) continue;
      const text = Buffer.concat(message).toString("utf8");
      message = [];
      const id = Number(/^\{"id":(\d+)/.exec(text)?.[1]);
      const caller = waiting.get(id);
      if (!caller) continue;
      waiting.delete(id);
      const answer = JSON.parse(text) as { result?: unknown; error?: { message: string } };
      if (answer.error) caller.reject(new Error(answer.error.message));
      else caller.resolve(answer.result);
    }
  });
  socket.on("close", () => {
    for (const caller of waiting.values()) caller.reject(new Error("the inspector closed the connection"));
    waiting.clear();
  });
  return {
    call: <T>(method: string, timeoutMs = 5_000) =>
      new Promise<T>((resolve, reject) => {
        const id = ++lastId;
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error(`the inspector did not answer ${method} within ${timeoutMs} ms`));
        }, timeoutMs);
        const settle =
          <A extends unknown[]>(then: (...args: A) => void) =>
          (...args: A) => {
            clearTimeout(timer);
            then(...args);
          };
        waiting.set(id, { resolve: settle((result: unknown) => resolve(result as T)), reject: settle(reject) });
        socket.write(maskedTextFrame(JSON.stringify({ id, method })));
      }),
    close: () => socket.destroy(),
  };
}

/** A client's text frame: final, masked (RFC 6455 §5.3: every frame a client sends is masked). */
function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text, "utf8");
  const length =
    payload.length < 126
      ? Buffer.from([0x80 | payload.length])
      : payload.length < 65_536
        ? Buffer.from([0x80 | 126, payload.length >> 8, payload.length & 0xff])
        : undefined;
  if (!length) throw new Error("an inspector call this long is not needed here");
  const mask = randomBytes(4);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
  return Buffer.concat([Buffer.from([0x81]), length, mask, masked]);
}

/** The first whole frame a server sent (unmasked), or undefined until all of it has arrived. */
function nextFrame(bytes: Buffer): { final: boolean; opcode: number; payload: Buffer; length: number } | undefined {
  if (bytes.length < 2) return undefined;
  const final = (bytes[0]! & 0x80) !== 0;
  const opcode = bytes[0]! & 0x0f;
  let length = bytes[1]! & 0x7f;
  let at = 2;
  if (length === 126) {
    if (bytes.length < 4) return undefined;
    length = bytes.readUInt16BE(2);
    at = 4;
  } else if (length === 127) {
    if (bytes.length < 10) return undefined;
    length = Number(bytes.readBigUInt64BE(2));
    at = 10;
  }
  if (bytes.length < at + length) return undefined;
  return { final, opcode, payload: bytes.subarray(at, at + length), length: at + length };
}
