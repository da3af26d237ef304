package dev.canvasagent.cluster;

import java.util.List;
import java.util.function.Consumer;

/**
 * This node and the nodes it sees: its id, the members, and which member owns a key (a room, a
 * session). Owners are chosen by rendezvous hashing over the members ({@link RendezvousOwners}), so
 * every node that sees the same members names the same owner without asking anyone, and a node's
 * keys move to the others when it leaves. Ownership is a routing decision only: what must not happen
 * twice is still decided in the store, conditional on a revision, an epoch or a state.
 *
 * <p>One node without a cluster manager is {@link #single()}: it is every key's owner.
 */
public interface ClusterView {

  /** This node's id; on a cluster, the cluster manager's. */
  String nodeId();

  /** The members this node sees, this one included, in id order. */
  List<String> members();

  /** Whether a cluster manager is behind this view (CANVAS_AGENT_CLUSTER). */
  boolean clustered();

  /** The member that owns {@code key}, by what this node sees now. */
  default String ownerOf(String key) {
    return RendezvousOwners.ownerOf(key, members());
  }

  default boolean owns(String key) {
    return nodeId().equals(ownerOf(key));
  }

  /**
   * Calls {@code listener} with the new members each time they change, on the context that
   * registered it (a verticle's event loop), never on the cluster manager's own threads.
   */
  void onMembersChanged(Consumer<List<String>> listener);

  /** The single embedded node: no cluster manager, one member, owner of everything. */
  static ClusterView single() {
    return new SingleNode(java.util.UUID.randomUUID().toString());
  }
}
