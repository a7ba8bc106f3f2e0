package org.camdoop.shuffle.aggregation;

/** Why {@link AggregationPipeline#pump(int)} returned. */
public enum PumpOutcome {
    /** An input has no data yet; {@link AggregationPipeline#blockedInput()} names it. Pump again when it delivers. */
    BLOCKED,
    /** The record budget was used up with no input blocked; pump again when the parent has credit. */
    BUDGET_USED,
    /** Every input ended and all output has been handed to the sink. */
    FINISHED
}
