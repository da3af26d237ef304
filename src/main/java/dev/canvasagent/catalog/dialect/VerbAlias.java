package dev.canvasagent.catalog.dialect;

/** One name of another dialect, the verb of ours it means, and how its params become that verb's. */
public record VerbAlias(String name, Dialect dialect, String verb, ParamsTranslation params) {}
