package dev.herald.common.wire;

/** What a DELETE that removes a resource answers with: {@code { id, object, deleted: true }}, as Stripe does. */
public record DeletedResource(String id, String object, boolean deleted) {
    public static DeletedResource of(String id, String object) {
        return new DeletedResource(id, object, true);
    }
}
