import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";

/**
 * A stand-in for Casdoor at its HTTP boundary, for the browser tests: its sign-in page asks for an
 * email and a name (no password), then sends the browser back to the gateway's callback with a
 * code; the token endpoint checks the code's PKCE verifier, and userinfo answers the profile with
 * the address verified. Only the test gateway is pointed at it.
 */
export interface FakeIdentityProvider {
  endpoint: string;
  close(): Promise<void>;
}

interface Grant {
  email: string;
  name: string;
  challenge: string;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
const base64Url = (bytes: Buffer) => bytes.toString("base64").replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

async function body(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

export function startFakeIdentityProvider(port: number): Promise<FakeIdentityProvider> {
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, Grant>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
    const q = url.searchParams;
    const send = (status: number, type: string, text: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "Content-Type": type, ...headers });
      res.end(text);
    };
    if (url.pathname === "/login/oauth/authorize") {
      const hidden = ["redirect_uri", "state", "code_challenge"].map(
        (name) => `<input type="hidden" name="${name}" value="${escape(q.get(name) ?? "")}">`,
      );
      return send(
        200,
        "text/html; charset=utf-8",
        `<!doctype html><title>Sign in · Test identity provider</title><meta name="viewport" content="width=device-width">
<h1>Sign in</h1><form action="/login/oauth/approve">${hidden.join("")}
<p><label>Email <input name="email" type="email" required></label></p><p><label>Your name <input name="name" required></label></p>
<p><button>Continue</button></p></form>`,
      );
    }
    if (url.pathname === "/login/oauth/approve") {
      const code = base64Url(randomBytes(24));
      grants.set(code, { email: q.get("email") ?? "", name: q.get("name") ?? "", challenge: q.get("code_challenge") ?? "" });
      const back = new URL(q.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      back.searchParams.set("state", q.get("state") ?? "");
      return send(302, "text/plain", "", { Location: back.toString() });
    }
    if (url.pathname === "/api/login/oauth/access_token" && req.method === "POST") {
      void body(req).then((form) => {
        const grant = grants.get(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        if (!grant || base64Url(createHash("sha256").update(verifier).digest()) !== grant.challenge)
          return send(400, "application/json", JSON.stringify({ error: "invalid_grant" }));
        grants.delete(form.get("code") ?? "");
        const token = base64Url(randomBytes(24));
        tokens.set(token, grant);
        send(200, "application/json", JSON.stringify({ access_token: token, token_type: "Bearer" }));
      });
      return;
    }
    if (url.pathname === "/api/userinfo") {
      const grant = tokens.get((req.headers.authorization ?? "").replace(/^Bearer /, ""));
      if (!grant) return send(401, "application/json", JSON.stringify({ error: "invalid_token" }));
      const profile = {
        sub: `fake:${grant.email}`,
        email: grant.email,
        preferred_username: grant.email.split("@")[0],
        name: grant.name,
        email_verified: true,
      };
      return send(200, "application/json", JSON.stringify(profile));
    }
    send(404, "text/plain", "not found");
  });
  return new Promise((resolve) =>
    server.listen(port, "127.0.0.1", () =>
      resolve({ endpoint: `http://127.0.0.1:${port}`, close: () => new Promise<void>((done) => server.close(() => done())) }),
    ),
  );
}
