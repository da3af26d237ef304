package dev.canvasagent;

import dev.canvasagent.bus.Drained;

/**
 * How a node's drain went ({@link CanvasAgent#drain}): the scheduler's runs ({@code
 * scheduler.drain}) and the document agent's loops ({@code doc.agent.drain}), drained side by side
 * within one grace.
 */
public record NodeDrained(Drained runs, Drained documentAgent) {}
