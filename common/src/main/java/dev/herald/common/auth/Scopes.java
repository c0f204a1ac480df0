package dev.herald.common.auth;

import java.util.List;

/** The scope names an API key or OAuth grant can carry (spec section 5 plus DESIGN section 3). */
public final class Scopes {
    public static final String PROFILES_READ = "profiles:read";
    public static final String PROFILES_WRITE = "profiles:write";
    public static final String ACCOUNTS_READ = "accounts:read";
    public static final String ACCOUNTS_WRITE = "accounts:write";
    public static final String POSTS_READ = "posts:read";
    public static final String POSTS_WRITE = "posts:write";
    public static final String COMMENTS_READ = "comments:read";
    public static final String COMMENTS_WRITE = "comments:write";
    public static final String WEBHOOKS_READ = "webhooks:read";
    public static final String WEBHOOKS_WRITE = "webhooks:write";
    public static final String LOGS_READ = "logs:read";

    public static final List<String> ALL = List.of(
            PROFILES_READ,
            PROFILES_WRITE,
            ACCOUNTS_READ,
            ACCOUNTS_WRITE,
            POSTS_READ,
            POSTS_WRITE,
            COMMENTS_READ,
            COMMENTS_WRITE,
            WEBHOOKS_READ,
            WEBHOOKS_WRITE,
            LOGS_READ);

    private Scopes() {}
}
