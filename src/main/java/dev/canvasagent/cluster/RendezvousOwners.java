package dev.canvasagent.cluster;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Highest-random-weight (rendezvous) hashing: a key's owner is the member whose hash with the key is
 * the highest. Every node computes it alone from the members it sees; when a member leaves, only its
 * keys move, each to the member that was second for it; when one joins, it takes only the keys it
 * now wins. The hash is FNV-1a over the UTF-8 bytes, finished with a 64-bit mixer, so it is the same
 * on every JVM and spreads short, similar ids (room names, UUIDs) evenly.
 */
public final class RendezvousOwners {
  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  private RendezvousOwners() {}

  /** The owner of {@code key} among {@code members} (not empty); ties go to the lower id. */
  public static String ownerOf(String key, List<String> members) {
    if (members.isEmpty()) {
      throw new IllegalArgumentException("no members to own " + key);
    }
    String owner = null;
    long best = 0;
    for (String member : members) {
      long weight = weight(key, member);
      if (owner == null
          || Long.compareUnsigned(weight, best) > 0
          || (weight == best && member.compareTo(owner) < 0)) {
        owner = member;
        best = weight;
      }
    }
    return owner;
  }

  static long weight(String key, String member) {
    long hash = FNV_OFFSET;
    hash = fnv(hash, key.getBytes(StandardCharsets.UTF_8));
    hash = (hash ^ 0xff) * FNV_PRIME; // a byte UTF-8 never uses, so ("ab","c") ≠ ("a","bc")
    hash = fnv(hash, member.getBytes(StandardCharsets.UTF_8));
    return mix(hash);
  }

  private static long fnv(long hash, byte[] bytes) {
    for (byte b : bytes) {
      hash = (hash ^ (b & 0xff)) * FNV_PRIME;
    }
    return hash;
  }

  /** SplitMix64's finalizer: every input bit reaches every output bit. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
