package dev.herald.posts.model;

import java.io.Serializable;
import java.util.Objects;

/** A target is one post's delivery to one account. */
public class PostTargetKey implements Serializable {
    public String postId;
    public String accountId;

    public PostTargetKey() {}

    public PostTargetKey(String postId, String accountId) {
        this.postId = postId;
        this.accountId = accountId;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PostTargetKey key && key.postId.equals(postId) && key.accountId.equals(accountId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(postId, accountId);
    }
}
