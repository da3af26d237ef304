package dev.canvasagent.runner.stream;

import io.vertx.core.json.JsonObject;

/**
 * An action read from the model's text: its position in the actions array (the stable part of its
 * id), its verb and its params — complete, or as far as written when it is a partial snapshot.
 */
public record StreamedAction(int index, String name, JsonObject params) {}
