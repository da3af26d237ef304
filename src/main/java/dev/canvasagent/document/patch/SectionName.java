package dev.canvasagent.document.patch;

/**
 * The file a section's headers name, as one section's name is compared with another's: a patch
 * edits one document, so every section that names a file must name the same one. git's {@code a/}
 * and {@code b/} prefixes and the tab-separated timestamp {@code diff -u} writes are not part of it.
 */
final class SectionName {
  private SectionName() {}

  /** The name in a {@code --- x} or {@code +++ x} header. */
  static String ofFileHeader(String line) {
    return withoutPrefix(line.substring(4));
  }

  /** The new name in a {@code diff --git a/x b/x} line, or all of it when it has no {@code b/}. */
  static String ofGitLine(String line) {
    var names = line.substring("diff --git ".length());
    int newName = names.lastIndexOf(" b/");
    return withoutPrefix(newName < 0 ? names : names.substring(newName + 1));
  }

  private static String withoutPrefix(String name) {
    int tab = name.indexOf('\t');
    var path = (tab < 0 ? name : name.substring(0, tab)).strip();
    return path.startsWith("a/") || path.startsWith("b/") ? path.substring(2) : path;
  }
}
