package dev.canvasagent.catalog.batch;

/** A connector whose two ends resolved to objects of the same batch. */
public record BatchConnector(
    int index, String ref, BatchShape from, BatchShape to, String label, String color) {}
