package dev.canvasagent.catalog.batch;

/** A width and a height, in page units. */
public record Size(double w, double h) {}
