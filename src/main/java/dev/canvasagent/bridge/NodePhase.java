package dev.canvasagent.bridge;

/**
 * Where the node is in its life, as its HTTP edge serves it: {@code STARTING} until every verticle
 * is deployed (only the health routes answer), {@code SERVING}, then {@code DRAINING} from the moment
 * a shutdown begins (not ready; the scheduler refuses new runs; streams stay open until the running
 * runs have ended).
 */
enum NodePhase {
  STARTING,
  SERVING,
  DRAINING
}
