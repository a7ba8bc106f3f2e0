package org.camdoop.shuffle.service.vertex;

/**
 * A task that says how urgent it is: an executor that knows levels ({@code LevelledExecutor}) runs lower levels
 * first; any other executor runs it as a plain task.
 */
public interface Levelled extends Runnable {

    /** 0 runs first (control work); a vertex's run is its distance from the root plus one. */
    int level();
}
