package dev.canvasagent.auth;

import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.config.ConfigException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.User;
import io.vertx.ext.auth.authentication.TokenCredentials;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Access tokens: JWTs checked with vertx-auth-jwt against the configured HS256 secret or public key,
 * and turned into {@link Grant}s. Failures are {@code UNAUTHENTICATED} or {@code TOKEN_EXPIRED}; their
 * messages never quote the token.
 */
public final class AccessTokens {
  /** The longest token, in characters: far above any real one, and a bound on what is parsed. */
  public static final int MAX_TOKEN_LENGTH = 8 * 1024;

  /** Clocks of token issuers and of this server drift a little. */
  static final int LEEWAY_SECONDS = 5;

  static final String SECRET_ALGORITHM = "HS256";

  private final JWTAuth jwt;
  private final boolean canMint;
  private final long maxLifetimeSeconds;

  private AccessTokens(JWTAuth jwt, boolean canMint, long maxLifetimeSeconds) {
    this.jwt = jwt;
    this.canMint = canMint;
    this.maxLifetimeSeconds = maxLifetimeSeconds;
  }

  /** The verifier of {@code auth}; a public key that does not load stops startup. */
  public static AccessTokens create(Vertx vertx, AppConfig.Auth auth) {
    if (!auth.enabled()) {
      throw new IllegalArgumentException("auth is off: there is nothing to verify tokens with");
    }
    boolean secret = !auth.jwtSecret().isEmpty();
    PubSecKeyOptions key =
        secret
            ? new PubSecKeyOptions().setAlgorithm(SECRET_ALGORITHM).setBuffer(auth.jwtSecret())
            : new PubSecKeyOptions()
                .setAlgorithm(auth.jwtAlgorithm())
                .setBuffer(auth.jwtPublicKey());
    // Vert.x checks the signature; the times are checked in verify, which can tell an expired token
    // (TOKEN_EXPIRED: get a new one) from one not valid yet, which Vert.x reports alike.
    JWTAuthOptions options =
        new JWTAuthOptions()
            .addPubSecKey(key)
            .setJWTOptions(
                new JWTOptions()
                    .setLeeway(LEEWAY_SECONDS)
                    .setIgnoreExpiration(true)
                    .setAlgorithm(secret ? SECRET_ALGORITHM : auth.jwtAlgorithm()));
    try {
      return new AccessTokens(
          JWTAuth.create(vertx, options), secret, auth.maxTokenLifetimeSeconds());
    } catch (RuntimeException unusable) {
      throw new ConfigException(
          "bad configuration: auth.jwtPublicKey (CANVAS_AGENT_JWT_PUBLIC_KEY) does not load as a "
              + auth.jwtAlgorithm()
              + " public key: "
              + unusable.getClass().getSimpleName());
    }
  }

  /**
   * The token of an {@code Authorization} value in the {@code Bearer} scheme (RFC 6750, the scheme
   * name in any case), stripped of surrounding blanks; empty for any other scheme. The token itself
   * may be empty: {@link #verify} refuses it.
   */
  public static Optional<String> bearerToken(String authorization) {
    return authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
        ? Optional.of(authorization.substring(7).strip())
        : Optional.empty();
  }

  /** The grant a token carries; fails UNAUTHENTICATED or TOKEN_EXPIRED. */
  public Future<Grant> verify(String token) {
    if (token == null || token.isEmpty()) {
      return Failure.future(FailureCode.UNAUTHENTICATED, "an access token is required");
    }
    if (token.length() > MAX_TOKEN_LENGTH) {
      return Failure.future(
          FailureCode.UNAUTHENTICATED,
          "the access token is longer than " + MAX_TOKEN_LENGTH + " characters");
    }
    if (JoseHeader.namesCriticalExtensions(token)) {
      // RFC 7515 §4.1.11: a recipient that does not understand every extension crit names must
      // refuse the token, and this server understands none.
      return Failure.future(
          FailureCode.UNAUTHENTICATED,
          "the access token's header names critical extensions (crit) this server does not support");
    }
    Future<User> authenticated;
    try {
      authenticated = jwt.authenticate(new TokenCredentials(token));
    } catch (RuntimeException malformed) {
      // vertx-auth-jwt throws, rather than fails, on a signed claim of the wrong type (exp: null).
      return Failure.future(FailureCode.UNAUTHENTICATED, "the access token is not valid");
    }
    return authenticated
        .recover(
            error -> Failure.future(FailureCode.UNAUTHENTICATED, "the access token is not valid"))
        .compose(
            user -> {
              // The decoded payload: the principal alone lacks exp and iat, which Vert.x keeps
              // among the attributes.
              JsonObject claims = user.attributes().getJsonObject("accessToken", user.principal());
              Grant grant;
              try {
                grant = Grant.fromClaims(claims);
              } catch (Grant.InvalidClaims invalid) {
                return Failure.future(
                    FailureCode.UNAUTHENTICATED,
                    "the access token's claims are not usable: " + invalid.getMessage());
              }
              return timely(claims, System.currentTimeMillis() / 1000, maxLifetimeSeconds)
                  .map(valid -> grant);
            });
  }

  /**
   * Whether a token is valid at {@code nowSeconds}, give or take the leeway: not before its
   * {@code nbf} or {@code iat}, not at or after its {@code exp}, and not valid for longer than
   * {@code maxLifetimeSeconds} from now: a token that never expires cannot be taken back.
   * {@link Grant#fromClaims} has checked that these are whole numbers of seconds in range.
   */
  static Future<Void> timely(JsonObject claims, long nowSeconds, long maxLifetimeSeconds) {
    for (String claim : List.of("nbf", "iat")) {
      if (claims.containsKey(claim)
          && NumericDate.of(claims.getValue(claim)).getAsLong() > nowSeconds + LEEWAY_SECONDS) {
        return Failure.future(
            FailureCode.UNAUTHENTICATED,
            "the access token is not valid yet (" + claim + " is in the future)");
      }
    }
    long exp = NumericDate.of(claims.getValue("exp")).getAsLong();
    if (nowSeconds - LEEWAY_SECONDS >= exp) {
      return Failure.future(FailureCode.TOKEN_EXPIRED, "the access token has expired");
    }
    if (exp - nowSeconds > maxLifetimeSeconds + LEEWAY_SECONDS) {
      return Failure.future(
          FailureCode.UNAUTHENTICATED,
          "the access token is valid for more than "
              + maxLifetimeSeconds
              + " seconds from now (CANVAS_AGENT_JWT_MAX_LIFETIME_SECONDS); ask its issuer for a shorter-lived one");
    }
    return Future.succeededFuture();
  }

  /**
   * A token for {@code subject} in {@code rooms} (and {@code documents}) as {@code role}, valid for
   * {@code ttl}: what {@code canvas-agent.jar mint-token} prints. Only a secret can sign; a server
   * configured with a public key verifies tokens its issuer signs.
   */
  public String mint(
      String subject,
      Collection<String> rooms,
      Collection<String> documents,
      Role role,
      Duration ttl) {
    if (!canMint) {
      throw new IllegalStateException(
          "this server verifies with a public key; tokens come from the key's issuer");
    }
    JsonObject claims =
        new JsonObject()
            .put(Grant.ROOMS_CLAIM, new JsonArray(List.copyOf(rooms)))
            .put(Grant.ROLE_CLAIM, role.wireName());
    if (!documents.isEmpty()) {
      claims.put(Grant.DOCUMENTS_CLAIM, new JsonArray(List.copyOf(documents)));
    }
    return jwt.generateToken(
        claims,
        new JWTOptions()
            .setAlgorithm(SECRET_ALGORITHM)
            .setSubject(subject)
            .setExpiresInSeconds((int) Math.max(1, ttl.toSeconds())));
  }

  /** A token with exactly {@code claims}, signed: for tokens a test needs in odd shapes (expired, without a role). */
  public String sign(JsonObject claims) {
    if (!canMint) {
      throw new IllegalStateException("this server verifies with a public key");
    }
    return jwt.generateToken(claims, new JWTOptions().setAlgorithm(SECRET_ALGORITHM));
  }
}
