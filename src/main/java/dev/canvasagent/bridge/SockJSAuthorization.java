package dev.canvasagent.bridge;

import dev.canvasagent.auth.AccessTokens;
import dev.canvasagent.auth.Grant;
import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.handler.sockjs.BridgeEvent;
import java.util.Optional;

/** Who may do what on a SockJS connection: each message's token, checked against the room. */
final class SockJSAuthorization {
  private final Vertx vertx;
  private final Optional<AccessTokens> tokens;

  SockJSAuthorization(Vertx vertx, Optional<AccessTokens> tokens) {
    this.vertx = vertx;
    this.tokens = tokens;
  }

  /**
   * The message's token ({@code headers.authorization: "Bearer <jwt>"}, as the official client's
   * {@code defaultHeaders} sends on every message) allows {@code needed} in the room. The connection
   * takes the role and expiry of its latest accepted token: a viewer's connection never hosts, and a
   * connection whose token runs out is closed.
   */
  Future<Grant> authorize(BridgeEvent event, SockJSClient client, String roomId, Role needed) {
    if (tokens.isEmpty()) {
      client.mayEdit(true);
      return Future.succeededFuture(Grant.open());
    }
    JsonObject headers =
        event.getRawMessage().getValue("headers") instanceof JsonObject given
            ? given
            : new JsonObject();
    Optional<String> bearer =
        headers.getValue("authorization") instanceof String header
            ? AccessTokens.bearerToken(header)
            : Optional.empty();
    if (bearer.isEmpty()) {
      return Failure.future(
          FailureCode.UNAUTHENTICATED,
          "each message needs headers.authorization: 'Bearer <token>'");
    }
    return client
        .verified(bearer.get(), tokens.get())
        .compose(
            grant ->
                EdgeAccess.check(grant, roomId, needed)
                    .compose(
                        allowed -> {
                          boolean hadEditor = client.mayEdit();
                          client.mayEdit(grant.allowsRoom(roomId, Role.EDITOR));
                          client.expiresAt(vertx, grant);
                          if (hadEditor != client.mayEdit() && client.roomId() != null) {
                            // Settled with the room's owner before the message goes on, so what
                            // follows (a hello) names the host as it now is.
                            return client
                                .room()
                                .compose(room -> room.hostingChanged(client.clientId()))
                                .otherwiseEmpty()
                                .map(grant);
                          }
                          return Future.succeededFuture(grant);
                        }));
  }
}
