package dev.canvasagent.mcpstdio;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the bridge forwards: the server's Streamable HTTP endpoint ({@code …/mcp}) and the bearer
 * token, if any. {@link #toString()} never shows the token, so the record can be logged.
 */
public record McpServerTarget(URI url, Optional<String> token) {

  public McpServerTarget {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(token, "token");
  }

  /** The URL without its query or user info, for messages a person reads. */
  public String shownUrl() {
    return url.getScheme()
        + "://"
        + url.getHost()
        + (url.getPort() < 0 ? "" : ":" + url.getPort())
        + (url.getRawPath() == null ? "" : url.getRawPath());
  }

  @Override
  public String toString() {
    return "McpServerTarget[url="
        + shownUrl()
        + ", token="
        + (token.isPresent() ? "(given)" : "(none)")
        + "]";
  }
}
