import { errors, jwtVerify, SignJWT } from "jose";
import type { Bindings } from "../env";
import { ApiError } from "../errors";

export const ACCESS_TOKEN_SECONDS = 24 * 60 * 60;

type JwtSettings = Pick<Bindings, "JWT_SECRET" | "JWT_ISSUER" | "JWT_AUDIENCE">;

const secretKey = (env: JwtSettings) => new TextEncoder().encode(env.JWT_SECRET);

/** The service's own access token: HS256, 24 hours, `sub` the identity provider's user id. */
export async function issueAccessToken(env: JwtSettings, casdoorId: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(casdoorId)
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
    .setIssuer(env.JWT_ISSUER)
    .setAudience(env.JWT_AUDIENCE)
    .sign(secretKey(env));
}

/** Returns `sub` of a valid token; only HS256 is accepted, so `alg: none` and key confusion fail. */
export async function verifyAccessToken(env: JwtSettings, token: string): Promise<string> {
  try {
    const { payload } = await jwtVerify(token, secretKey(env), {
      algorithms: ["HS256"],
      issuer: env.JWT_ISSUER,
      audience: env.JWT_AUDIENCE,
      requiredClaims: ["sub", "iat", "exp"],
    });
    return payload.sub!;
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new ApiError(401, "Token has expired");
    throw new ApiError(401, "Invalid authentication credentials");
  }
}
