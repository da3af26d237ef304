package dev.canvasagent.model;

import io.vertx.core.json.JsonArray;

/** What a provider is asked: the system prompt, the user's message and the tools it may call. */
public record ModelRequest(String model, String systemPrompt, String userMessage, JsonArray tools) {}
