package dev.canvasagent.support;

import org.junit.jupiter.api.Assumptions;

/**
 * Whether the build made the browser client (web/, into the classpath's {@code webroot/}). A build with
 * {@code -Dweb.skip=true} has none: the tests that need the page are skipped then, except with
 * {@code CI=true}, where they fail.
 */
public final class WebBuild {
  private WebBuild() {}

  public static boolean built() {
    return WebBuild.class.getClassLoader().getResource("webroot/index.html") != null;
  }

  public static void require() {
    if (!built()) {
      String why =
          "the web client was not built (webroot/index.html is not on the classpath: the build ran with -Dweb.skip=true)";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        throw new IllegalStateException(
            why + " (CI=true: the web client's tests may not be skipped)");
      }
      Assumptions.abort(why);
    }
  }
}
