package dev.canvasagent.runner.context;

import dev.canvasagent.board.Board;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.store.Store;
import io.vertx.core.eventbus.EventBus;
import java.util.function.LongSupplier;

/**
 * Where a part's {@link PromptPart#gather} fetches from: the event bus, the store, the context
 * settings, the clock (epoch milliseconds), and the room's board as the run read it.
 */
record ContextSources(
    EventBus bus, Store store, AppConfig.Context config, LongSupplier clock, Board board) {}
