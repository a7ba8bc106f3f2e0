package org.camdoop.torus.routing;

/** No live path joins two servers: the failures have partitioned the torus. */
public final class UnreachableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UnreachableException(String message) {
        super(message);
    }
}
