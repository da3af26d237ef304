package dev.canvasagent.bridge;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.HostPresence;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Who hosts each room, wherever the host is, as the rooms' owners announce it; told to this node's
 * screenshot verticle ({@code screenshot.hosts}) as the host changes, so a run here asks the host on
 * whatever node it is, and does not go text-only because the host is elsewhere. A host whose node
 * left the cluster is forgotten at once (its room's owner elects the next); a node that starts asks
 * the others for the hosts they already elected.
 */
final class ClusterHosts {
  private final Vertx vertx;
  private final ClusterLink link;
  private final Map<String, RoomHost> hosts = new HashMap<>();

  ClusterHosts(Vertx vertx, ClusterLink link) {
    this.vertx = vertx;
    this.link = link;
  }

  void announced(RoomHost host) {
    if (host == null || host.roomId() == null) {
      return;
    }
    RoomHost before = hosts.get(host.roomId());
    String beforeId = before == null ? null : before.clientId();
    if (Objects.equals(beforeId, host.clientId())) {
      if (host.clientId() != null) {
        hosts.put(host.roomId(), host);
      }
      return;
    }
    if (beforeId != null) {
      hosts.remove(host.roomId());
      Address.SCREENSHOT_HOSTS.send(
          vertx.eventBus(), new HostPresence(host.roomId(), beforeId, false));
    }
    if (host.clientId() != null) {
      hosts.put(host.roomId(), host);
      Address.SCREENSHOT_HOSTS.send(
          vertx.eventBus(), new HostPresence(host.roomId(), host.clientId(), true));
    }
  }

  void membersChanged(List<String> members) {
    List.copyOf(hosts.values()).stream()
        .filter(host -> !members.contains(host.nodeId()))
        .forEach(host -> announced(RoomHost.none(host.roomId())));
  }

  /** Asks every other member for the hosts it announced before this node listened. */
  Future<Void> catchUp(List<String> members) {
    List<Future<JsonObject>> asks =
        members.stream()
            .filter(member -> !member.equals(link.nodeId()))
            .map(
                member ->
                    link.request(member, ClusterLink.Op.HOSTS, JsonObject::new)
                        .onSuccess(
                            answer ->
                                answer.getJsonArray("hosts", new JsonArray()).stream()
                                    .map(host -> RoomHost.fromJson((JsonObject) host))
                                    .forEach(this::announced))
                        .otherwise(new JsonObject()))
            .toList();
    return Future.all(asks).mapEmpty();
  }
}
