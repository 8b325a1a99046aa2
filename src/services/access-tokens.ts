import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Config } from "../env";
import { ApiError } from "../lib/errors";
import { MINUTE } from "../lib/time";

/** Access tokens: JWT, HS256 only, 15 minutes, issuer/audience/subject/expiry/type checked. */
export const ACCESS_TOKEN_TTL_MS = 15 * MINUTE;
export const JWT_ISSUER = "deep-research-api";
export const JWT_AUDIENCE = "deep-research-dashboard";
const TOKEN_TYPE = "access";

export interface AccessClaims {
  userId: string;
  /** The session (refresh token family) the token was issued for. */
  sessionId: string;
}

function secretKey(config: Config): Uint8Array {
  return new TextEncoder().encode(config.JWT_SECRET);
}

export async function issueAccessToken(config: Config, claims: AccessClaims): Promise<string> {
  const now = Date.now();
  return new SignJWT({ typ: TOKEN_TYPE, sid: claims.sessionId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setSubject(claims.userId)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor((now + ACCESS_TOKEN_TTL_MS) / 1000))
    .sign(secretKey(config));
}

/** Verifies a bearer access token; any defect (alg, key, claims, expiry, type) is a plain 401. */
export async function verifyAccessToken(config: Config, token: string): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, secretKey(config), {
      algorithms: ["HS256"],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      requiredClaims: ["sub", "exp", "iat"],
    });
    if (payload.typ !== TOKEN_TYPE || typeof payload.sub !== "string" || typeof payload.sid !== "string") {
      throw ApiError.unauthorized("Invalid access token.");
    }
    return { userId: payload.sub, sessionId: payload.sid };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw ApiError.unauthorized("Access token expired.");
    if (error instanceof joseErrors.JOSEError) throw ApiError.unauthorized("Invalid access token.");
    throw error;
  }
}
