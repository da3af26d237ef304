package dev.canvasagent.runner.stream;

/** The model's actions cannot be read: the message names what is wrong and where. */
public final class MalformedActions extends RuntimeException {
  public MalformedActions(String message) {
    super(message);
  }
}
