package dev.herald.usage.service;

import dev.herald.usage.catalog.Plan;
import dev.herald.usage.catalog.PlanSource;
import java.time.Instant;

/** A plan, why the workspace is on it, and since when (the anchor of a subscription's monthly periods). */
public record PlanTerms(Plan plan, PlanSource source, Instant startedAt) {
    /** A workspace and mode nobody has given a plan: free, calendar months. */
    public static final PlanTerms DEFAULT = new PlanTerms(Plan.FREE, PlanSource.FREE, Instant.EPOCH);
}
