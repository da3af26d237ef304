package dev.canvasagent.board.geometry;

/** The shapes whose centres fall in one cell of a grid: the cell's row and column, their bounds' union, how many. */
public record GridCluster(long row, long column, Box bounds, int count) {}
