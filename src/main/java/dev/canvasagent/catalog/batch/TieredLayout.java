package dev.canvasagent.catalog.batch;

import dev.canvasagent.board.geometry.Vec;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * The flowchart arrangements (top-down and left-right): nodes in tiers from their connections —
 * roots (nothing leads to them) in tier 0, every other node one tier past its deepest source — each
 * tier a row (top-down) or a column (left-right), centred on the widest. A cycle is broken where a
 * depth-first walk in node order first comes back to a node it is still inside; that edge is left
 * out of the tiers, so the walk always ends.
 */
public final class TieredLayout {
  /** An edge from node {@code from} to node {@code to}, by position in the node list. */
  public record Edge(int from, int to) {}

  public enum Direction {
    TOP_DOWN,
    LEFT_RIGHT
  }

  private TieredLayout() {}

  public static int[] assign(int nodes, List<Edge> edges) {
    List<List<Integer>> out = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      out.add(new ArrayList<>());
    }
    for (Edge edge : edges) {
      if (edge.from() != edge.to()
          && edge.from() >= 0
          && edge.to() >= 0
          && edge.from() < nodes
          && edge.to() < nodes) {
        out.get(edge.from()).add(edge.to());
      }
    }
    List<Integer> order = reversePostorder(out);
    boolean[][] kept = keptEdges(out, order);
    int[] tier = new int[nodes];
    for (int node : order) {
      for (int k = 0; k < out.get(node).size(); k++) {
        if (kept[node][k]) {
          int target = out.get(node).get(k);
          tier[target] = Math.max(tier[target], tier[node] + 1);
        }
      }
    }
    return tier;
  }

  /** Depth-first, roots first then node order, iteratively (a 50-node chain must not need 50 frames of stack). */
  private static List<Integer> reversePostorder(List<List<Integer>> out) {
    int nodes = out.size();
    boolean[] hasIncoming = new boolean[nodes];
    out.forEach(targets -> targets.forEach(target -> hasIncoming[target] = true));
    List<Integer> starts = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      if (!hasIncoming[i]) {
        starts.add(i);
      }
    }
    for (int i = 0; i < nodes; i++) {
      if (hasIncoming[i]) {
        starts.add(i);
      }
    }
    boolean[] visited = new boolean[nodes];
    List<Integer> postorder = new ArrayList<>();
    for (int start : starts) {
      if (visited[start]) {
        continue;
      }
      Deque<int[]> stack = new ArrayDeque<>();
      stack.push(new int[] {start, 0});
      visited[start] = true;
      while (!stack.isEmpty()) {
        int[] frame = stack.peek();
        List<Integer> targets = out.get(frame[0]);
        if (frame[1] < targets.size()) {
          int target = targets.get(frame[1]++);
          if (!visited[target]) {
            visited[target] = true;
            stack.push(new int[] {target, 0});
          }
        } else {
          postorder.add(frame[0]);
          stack.pop();
        }
      }
    }
    List<Integer> order = new ArrayList<>(postorder);
    java.util.Collections.reverse(order);
    return order;
  }

  /** An edge is kept when it goes forward in the order; one going back closes a cycle and is left out. */
  private static boolean[][] keptEdges(List<List<Integer>> out, List<Integer> order) {
    int[] position = new int[out.size()];
    for (int i = 0; i < order.size(); i++) {
      position[order.get(i)] = i;
    }
    boolean[][] kept = new boolean[out.size()][];
    for (int node = 0; node < out.size(); node++) {
      kept[node] = new boolean[out.get(node).size()];
      for (int k = 0; k < out.get(node).size(); k++) {
        kept[node][k] = position[out.get(node).get(k)] > position[node];
      }
    }
    return kept;
  }

  /**
   * Positions for nodes with the given sizes and tiers: within a tier {@code gap} apart in node order,
   * tiers {@code tierGap} apart, each tier centred across the widest.
   */
  public static List<Vec> arrange(
      List<Size> sizes, int[] tier, Direction direction, double gap, double tierGap) {
    int tiers = Arrays.stream(tier).max().orElse(-1) + 1;
    double[] across = new double[tiers];
    double[] depth = new double[tiers];
    int[] count = new int[tiers];
    for (int i = 0; i < sizes.size(); i++) {
      Size size = oriented(sizes.get(i), direction);
      int t = tier[i];
      across[t] += (count[t] > 0 ? gap : 0) + size.w();
      depth[t] = Math.max(depth[t], size.h());
      count[t]++;
    }
    double widest = Arrays.stream(across).max().orElse(0);
    double[] tierStart = new double[tiers];
    for (int t = 1; t < tiers; t++) {
      tierStart[t] = tierStart[t - 1] + depth[t - 1] + tierGap;
    }
    double[] cursor = new double[tiers];
    for (int t = 0; t < tiers; t++) {
      cursor[t] = (widest - across[t]) / 2;
    }
    List<Vec> positions = new ArrayList<>(sizes.size());
    for (int i = 0; i < sizes.size(); i++) {
      Size size = oriented(sizes.get(i), direction);
      int t = tier[i];
      double along = cursor[t];
      cursor[t] += size.w() + gap;
      positions.add(
          direction == Direction.TOP_DOWN
              ? new Vec(along, tierStart[t])
              : new Vec(tierStart[t], along));
    }
    return positions;
  }

  /** Sizes seen as (across a tier, along the flow): left-right swaps the axes. */
  private static Size oriented(Size size, Direction direction) {
    return direction == Direction.TOP_DOWN ? size : new Size(size.h(), size.w());
  }
}
