package dev.canvasagent.cluster;

import java.util.List;
import java.util.function.Consumer;

/** The embedded node: alone, so its members never change. */
record SingleNode(String nodeId) implements ClusterView {

  @Override
  public List<String> members() {
    return List.of(nodeId);
  }

  @Override
  public boolean clustered() {
    return false;
  }

  @Override
  public void onMembersChanged(Consumer<List<String>> listener) {
    // One node: its members never change.
  }
}
