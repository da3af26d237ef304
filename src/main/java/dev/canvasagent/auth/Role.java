package dev.canvasagent.auth;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * What a token lets its holder do in the rooms and documents it names. Each role includes the ones
 * before it: a {@code viewer} subscribes and reads; an {@code editor} also edits (a person's board and
 * document edits, transcript lines), starts and cancels runs, and manages sessions; an {@code admin} is
 * an editor in every room and document, whatever its token lists.
 */
public enum Role {
  VIEWER,
  EDITOR,
  ADMIN;

  public boolean includes(Role needed) {
    return ordinal() >= needed.ordinal();
  }

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<Role> fromWire(Object value) {
    return Arrays.stream(values()).filter(role -> role.wireName().equals(value)).findFirst();
  }
}
