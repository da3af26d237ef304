package dev.canvasagent.schema;

import java.util.Optional;
import org.everit.json.schema.regexp.JavaUtilRegexpFactory;
import org.everit.json.schema.regexp.Regexp;
import org.everit.json.schema.regexp.RegexpFactory;
import org.everit.json.schema.regexp.RegexpMatchingFailure;

/**
 * JSON Schema's {@code pattern} is an ECMA-262 regular expression, and everit compiles it with
 * {@code java.util.regex} as it is. The two differ where it matters for ids: without the multiline
 * flag ECMA's {@code $} matches only at the end of the input, Java's also before a final line
 * terminator, so {@code "^[a-z]+$"} let {@code "demo\n"} through. This factory rewrites the pattern to
 * Java with ECMA's meaning for what a schema can say differently — {@code $} becomes {@code \z}, and
 * inside a character class {@code [} and {@code &} are literals (Java would nest or intersect) — and
 * leaves the rest to everit's own Java handler. Errors quote the pattern as the schema wrote it.
 */
final class EcmaRegexpFactory implements RegexpFactory {
  private final RegexpFactory java = new JavaUtilRegexpFactory();

  @Override
  public Regexp createHandler(String ecmaPattern) {
    return new EcmaRegexp(ecmaPattern, java.createHandler(toJava(ecmaPattern)));
  }

  /** The Java pattern that matches what {@code ecmaPattern} matches. */
  static String toJava(String ecmaPattern) {
    StringBuilder java = new StringBuilder(ecmaPattern.length() + 4);
    boolean inClass = false;
    for (int i = 0; i < ecmaPattern.length(); i++) {
      char c = ecmaPattern.charAt(i);
      if (c == '\\' && i + 1 < ecmaPattern.length()) {
        // An escape means the same in both, and its character is never an anchor or a class
        // bracket.
        java.append(c).append(ecmaPattern.charAt(++i));
      } else if (inClass) {
        if (c == ']') {
          inClass = false;
          java.append(c);
        } else if (c == '[' || c == '&') {
          java.append('\\').append(c);
        } else {
          java.append(c);
        }
      } else if (c == '[') {
        inClass = true;
        java.append(c);
        // A ']' first in a class (after an optional '^') is a literal in Java; ECMA's "[]" and
        // "[^]" never appear in our schemas, so reading it as Java does is enough here.
        if (i + 1 < ecmaPattern.length() && ecmaPattern.charAt(i + 1) == '^') {
          java.append(ecmaPattern.charAt(++i));
        }
        if (i + 1 < ecmaPattern.length() && ecmaPattern.charAt(i + 1) == ']') {
          java.append("\\]");
          i++;
        }
      } else if (c == '$') {
        java.append("\\z");
      } else {
        java.append(c);
      }
    }
    return java.toString();
  }

  /** everit's Java handler under the schema's own pattern, which error messages quote. */
  private record EcmaRegexp(String source, Regexp java) implements Regexp {
    @Override
    public Optional<RegexpMatchingFailure> patternMatchingFailure(String input) {
      return java.patternMatchingFailure(input);
    }

    @Override
    public String toString() {
      return source;
    }
  }
}
