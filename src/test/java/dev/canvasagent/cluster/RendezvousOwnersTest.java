package dev.canvasagent.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RendezvousOwnersTest {
  private static final List<String> THREE = List.of("node-a", "node-b", "node-c");
  private static final List<String> KEYS =
      IntStream.range(0, 3_000).mapToObj(i -> "room-" + i).toList();

  @Test
  void the_owner_does_not_depend_on_the_order_the_members_are_listed_in() {
    for (String key : KEYS) {
      assertEquals(
          RendezvousOwners.ownerOf(key, THREE),
          RendezvousOwners.ownerOf(key, List.of("node-c", "node-a", "node-b")),
          key);
    }
  }

  @Test
  void keys_spread_over_the_members() {
    Map<String, Integer> owned = new HashMap<>();
    KEYS.forEach(key -> owned.merge(RendezvousOwners.ownerOf(key, THREE), 1, Integer::sum));
    assertEquals(THREE.size(), owned.size());
    // 1,000 each on average; a fair hash stays well within ±15%.
    owned.forEach(
        (member, count) -> assertTrue(count >= 850 && count <= 1_150, member + " owns " + count));
  }

  @Test
  void when_a_member_leaves_only_its_keys_move() {
    List<String> survivors = List.of("node-a", "node-c");
    for (String key : KEYS) {
      String before = RendezvousOwners.ownerOf(key, THREE);
      if (!before.equals("node-b")) {
        assertEquals(before, RendezvousOwners.ownerOf(key, survivors), key);
      }
    }
  }

  @Test
  void a_joining_member_takes_only_keys_it_now_wins() {
    List<String> four = List.of("node-a", "node-b", "node-c", "node-d");
    for (String key : KEYS) {
      String after = RendezvousOwners.ownerOf(key, four);
      if (!after.equals("node-d")) {
        assertEquals(RendezvousOwners.ownerOf(key, THREE), after, key);
      }
    }
  }

  @Test
  void key_and_member_boundaries_do_not_collide() {
    assertNotEquals(RendezvousOwners.weight("ab", "c"), RendezvousOwners.weight("a", "bc"));
  }

  @Test
  void nobody_owns_anything_without_members() {
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class, () -> RendezvousOwners.ownerOf("room", List.of()));
    assertTrue(refused.getMessage().contains("no members"), refused.getMessage());
  }

  @Test
  void the_single_node_owns_every_key() {
    ClusterView single = ClusterView.single();
    assertFalse(single.clustered());
    assertEquals(List.of(single.nodeId()), single.members());
    KEYS.forEach(key -> assertTrue(single.owns(key), key));
  }
}
