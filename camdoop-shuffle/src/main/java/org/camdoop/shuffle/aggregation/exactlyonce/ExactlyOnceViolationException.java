package org.camdoop.shuffle.aggregation.exactlyonce;

import java.io.IOException;

/** A partition's streams did not include every expected map attempt exactly once. */
public final class ExactlyOnceViolationException extends IOException {
    private final transient ExactlyOnceReport report;

    ExactlyOnceViolationException(ExactlyOnceReport report) {
        super(report.message());
        this.report = report;
    }

    public ExactlyOnceReport report() {
        return report;
    }
}
