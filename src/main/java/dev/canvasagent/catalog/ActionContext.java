package dev.canvasagent.catalog;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.CoordinateFrame;

/**
 * What a verb judges an action against: the board as it is now, the session's coordinate frame, and
 * whether brand palette aliases are on ({@code NEXT_PUBLIC_CANVAS_AGENT_THEME_ENABLED}).
 */
public record ActionContext(Board board, CoordinateFrame frame, boolean brandPalette) {}
