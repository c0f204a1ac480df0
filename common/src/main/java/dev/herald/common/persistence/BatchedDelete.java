package dev.herald.common.persistence;

import io.smallrye.mutiny.Uni;
import java.util.function.Supplier;

/**
 * Repeats a delete of at most {@code batchSize} rows until one deletes fewer: a purge of any size as a series of
 * short statements, none holding many row locks or a long transaction.
 */
public final class BatchedDelete {
    private BatchedDelete() {}

    /** The total number of rows the batches deleted. */
    public static Uni<Long> untilShort(Supplier<Uni<Integer>> batch, int batchSize) {
        return from(batch, batchSize, 0L);
    }

    private static Uni<Long> from(Supplier<Uni<Integer>> batch, int batchSize, long deletedSoFar) {
        return batch.get()
                .flatMap(deleted -> deleted >= batchSize
                        ? from(batch, batchSize, deletedSoFar + deleted)
                        : Uni.createFrom().item(deletedSoFar + deleted));
    }
}
