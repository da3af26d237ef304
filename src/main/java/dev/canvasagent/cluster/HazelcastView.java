package dev.canvasagent.cluster;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster as a joined {@link HazelcastClusterManager} sees it. Node ids are the manager's, the
 * ones Vert.x itself uses for the clustered event bus (not the Hazelcast member UUIDs that
 * Hazelcast's own {@code Members {…}} log lines print).
 *
 * <p>Membership changes are heard through a Hazelcast membership listener of our own: the manager's
 * {@code nodeListener} slot belongs to Vert.x (one listener, which it sets to clean up a dead node's
 * subscriptions), so taking it would break the bus.
 */
final class HazelcastView implements ClusterView {
  private static final Logger LOG = LoggerFactory.getLogger(HazelcastView.class);
  private final HazelcastClusterManager manager;
  private final List<Registered> listeners = new CopyOnWriteArrayList<>();

  private record Registered(Context context, Consumer<List<String>> listener) {}

  HazelcastView(HazelcastClusterManager manager) {
    this.manager = manager;
    manager
        .getHazelcastInstance()
        .getCluster()
        .addMembershipListener(
            new MembershipListener() {
              @Override
              public void memberAdded(MembershipEvent event) {
                changed("added", event);
              }

              @Override
              public void memberRemoved(MembershipEvent event) {
                changed("removed", event);
              }
            });
  }

  @Override
  public String nodeId() {
    return manager.getNodeId();
  }

  @Override
  public List<String> members() {
    return manager.isActive() ? manager.getNodes().stream().sorted().toList() : List.of(nodeId());
  }

  @Override
  public boolean clustered() {
    return true;
  }

  @Override
  public void onMembersChanged(Consumer<List<String>> listener) {
    Context context = Vertx.currentContext();
    if (context == null) {
      throw new IllegalStateException("register a members listener from a Vert.x context");
    }
    listeners.add(new Registered(context, listener));
  }

  private void changed(String change, MembershipEvent event) {
    List<String> members = members();
    // Hazelcast's own lines about it are many and multi-line (logback.xml keeps its warnings only).
    LOG.atInfo()
        .addKeyValue("node", nodeId())
        .addKeyValue("change", change)
        .addKeyValue("member", event.getMember().getAddress().toString())
        .addKeyValue("count", members.size())
        .addKeyValue("members", String.join(",", members))
        .log("cluster.members_changed");
    for (Registered registered : listeners) {
      registered.context().runOnContext(ignored -> registered.listener().accept(members));
    }
  }
}
