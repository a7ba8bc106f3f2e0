package org.camdoop.torus.transport.stream;

/** A new stream could not get its minimum buffers: the daemon already runs as many streams as its budget allows. */
public final class BudgetExhaustedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public BudgetExhaustedException(String message) {
        super(message);
    }
}
