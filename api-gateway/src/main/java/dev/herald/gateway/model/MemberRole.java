package dev.herald.gateway.model;

import dev.herald.common.auth.Scopes;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a dashboard member may do in a workspace (issue 31): an owner everything, a developer the integration's
 * keys and webhooks (and reads everything), a viewer only reads. The scopes are those the member's internal token
 * carries when the dashboard calls a service for them, so the services enforce the same line the pages draw.
 */
public enum MemberRole {
    OWNER,
    DEVELOPER,
    VIEWER;

    private static final Set<String> READ_SCOPES =
            Scopes.ALL.stream().filter(scope -> scope.endsWith(":read")).collect(Collectors.toUnmodifiableSet());

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<MemberRole> fromWire(String value) {
        return Arrays.stream(values())
                .filter(role -> role.wireName().equals(value))
                .findFirst();
    }

    public static List<String> wireNames() {
        return Arrays.stream(values()).map(MemberRole::wireName).toList();
    }

    public Set<String> scopes() {
        return switch (this) {
            case OWNER -> Set.copyOf(Scopes.ALL);
            case DEVELOPER -> union(READ_SCOPES, Set.of(Scopes.WEBHOOKS_WRITE));
            case VIEWER -> READ_SCOPES;
        };
    }

    public boolean managesKeys() {
        return this != VIEWER;
    }

    public boolean managesWebhooks() {
        return this != VIEWER;
    }

    /** Whether the role's scopes let it create posts (the dashboard's CSV import). */
    public boolean schedulesPosts() {
        return scopes().contains(Scopes.POSTS_WRITE);
    }

    /** Members, connect links, cancelling posts: the workspace's own business. */
    public boolean isOwner() {
        return this == OWNER;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        return Stream.concat(a.stream(), b.stream()).collect(Collectors.toUnmodifiableSet());
    }
}
